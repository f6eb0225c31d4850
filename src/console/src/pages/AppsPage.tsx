import { useQuery } from 'urql';
import { graphql } from '../gql';
import { RequestError, StateBadge } from '../ui';

const AppsQuery = graphql(`
  query ConsoleApps {
    apps {
      id
      databaseId
      name
      from
      errors {
        message
      }
      services {
        id
        databaseId
        name
        activeState
        subState
      }
    }
  }
`);

export function AppsPage() {
  const [{ data, fetching, error }] = useQuery({ query: AppsQuery });
  return (
    <section aria-labelledby="apps-title">
      <h1 id="apps-title">Apps</h1>
      <p>
        <a href="#/templates">Launch an app from a template, a compose file or an image</a>
      </p>
      <RequestError error={error} />
      {fetching && !data && <p className="loading">Loading apps…</p>}
      {data && data.apps.length === 0 && <p>No apps yet.</p>}
      {data && data.apps.length > 0 && (
        <table>
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">From</th>
              <th scope="col">Services</th>
            </tr>
          </thead>
          <tbody>
            {data.apps.map((app) => (
              <tr key={app.id}>
                <td>
                  <a href={`#/apps/${app.databaseId}`}>{app.name}</a>
                  {app.errors.length > 0 && <span className="error"> {app.errors[0].message}</span>}
                </td>
                <td>{app.from}</td>
                <td>
                  <ul className="inline">
                    {(app.services ?? []).map((service) => (
                      <li key={service.id}>
                        {service.name} <StateBadge active={service.activeState} sub={service.subState} />
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
