import { useEffect, useRef, useState } from 'react';
import { useClient, useMutation, useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import type { ConsoleAppJournalQuery } from '../gql/graphql';
import { navigate } from '../router';
import { RequestError, resultError, ScopedButton, StateBadge } from '../ui';

const AppQuery = graphql(`
  query ConsoleApp($id: Int!) {
    app(id: $id) {
      id
      databaseId
      name
      from
      documentation
      errors {
        message
      }
      warnings {
        message
      }
      services {
        id
        databaseId
        name
        from
        activeState
        subState
        ports {
          containerPort
          hostPort
          proto
        }
        errors {
          message
        }
      }
    }
  }
`);

// graphcache writes each event's service into the cache: the states above change in place.
const StatesSubscription = graphql(`
  subscription ConsoleServiceStates($appId: Int!) {
    serviceStateChanged(appId: $appId) {
      serviceId
      service {
        id
        activeState
        subState
      }
    }
  }
`);

const JournalQuery = graphql(`
  query ConsoleAppJournal($appId: Int!, $cursor: String) {
    appJournal(appId: $appId, cursor: $cursor, limit: 500) {
      cursor
      service
      stream
      message
      timestamp
    }
  }
`);

const DeleteApp = graphql(`
  mutation ConsoleDeleteApp($id: Int!) {
    deleteApp(input: { id: $id }) {
      __typename
      ... on Error {
        message
      }
    }
  }
`);

export function AppPage({ id }: { id: number }) {
  const [{ data, fetching, error }] = useQuery({ query: AppQuery, variables: { id } });
  useSubscription({ query: StatesSubscription, variables: { appId: id } });
  const [deleting, deleteApp] = useMutation(DeleteApp);
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const app = data?.app;
  const remove = async () => {
    const result = await deleteApp({ id });
    const failed = result.error?.message ?? resultError(result.data?.deleteApp);
    if (failed) return setDeleteError(failed);
    navigate('/apps');
  };

  return (
    <section aria-labelledby="app-title">
      <p>
        <a href="#/apps">← Apps</a>
      </p>
      <RequestError error={error} />
      {fetching && !data && <p className="loading">Loading…</p>}
      {app && (
        <>
          <h1 id="app-title">{app.name}</h1>
          <p className="muted">From {app.from}</p>
          {[...app.errors, ...app.warnings].map((e, i) => (
            <p key={i} className="error">
              {e.message}
            </p>
          ))}
          <h2>Services</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Service</th>
                <th scope="col">Image</th>
                <th scope="col">State</th>
                <th scope="col">Ports</th>
              </tr>
            </thead>
            <tbody>
              {(app.services ?? []).map((service) => (
                <tr key={service.id} data-service={service.name}>
                  <td>{service.name}</td>
                  <td>
                    <code>{service.from}</code>
                  </td>
                  <td>
                    <StateBadge active={service.activeState} sub={service.subState} />
                    {service.errors && <span className="error"> {service.errors.message}</span>}
                  </td>
                  <td>
                    {service.ports
                      .map(
                        (p) => (p.hostPort ? `${p.hostPort}→${p.containerPort}` : String(p.containerPort)) + (p.proto ? `/${p.proto}` : ''),
                      )
                      .join(', ')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Journal appId={id} />
          <h2>Delete</h2>
          {!confirming ? (
            <ScopedButton scope="write" className="danger" onClick={() => setConfirming(true)}>
              Delete app…
            </ScopedButton>
          ) : (
            <div role="group" aria-label="Confirm deletion" className="confirm">
              <p>Delete {app.name} and its containers? This cannot be undone.</p>
              <button type="button" className="danger" onClick={() => void remove()} disabled={deleting.fetching}>
                Delete {app.name}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </div>
          )}
          {deleteError && (
            <p role="alert" className="error">
              {deleteError}
            </p>
          )}
        </>
      )}
    </section>
  );
}

type JournalLine = NonNullable<ConsoleAppJournalQuery['appJournal']>[number];

/** The app's log tail: follows new lines every two seconds until paused; filtered as typed. */
function Journal({ appId }: { appId: number }) {
  const client = useClient();
  const [lines, setLines] = useState<JournalLine[]>([]);
  const [following, setFollowing] = useState(true);
  const [filter, setFilter] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const cursor = useRef<string | undefined>(undefined);

  useEffect(() => {
    if (!following) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const result = await client.query(JournalQuery, { appId, cursor: cursor.current }, { requestPolicy: 'network-only' }).toPromise();
      if (stopped) return;
      const fresh = result.data?.appJournal ?? [];
      setFailure(result.error ? result.error.message : null);
      if (fresh.length > 0) {
        cursor.current = fresh.at(-1)!.cursor;
        setLines((old) => [...old, ...fresh].slice(-2000));
      }
      timer = setTimeout(() => void poll(), 2000);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [following, appId, client]);

  const needle = filter.trim().toLowerCase();
  const shown = needle ? lines.filter((l) => l.message.toLowerCase().includes(needle) || l.service.toLowerCase().includes(needle)) : lines;
  return (
    <>
      <h2>Log</h2>
      <div className="toolbar">
        <button type="button" onClick={() => setFollowing(!following)} aria-pressed={following}>
          {following ? 'Pause' : 'Follow'}
        </button>
        <label>
          Filter <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </label>
        <span className="muted" aria-live="polite">
          {shown.length} of {lines.length} lines
        </span>
      </div>
      {failure && <p className="error">{failure}</p>}
      <pre className="journal" role="log" tabIndex={0} aria-label="Log lines">
        {shown.map((l) => `${l.timestamp.slice(11, 19)} ${l.service} ${l.stream === 'stderr' ? '! ' : ''}${l.message}`).join('\n')}
      </pre>
    </>
  );
}
