import Markdown from 'react-markdown';
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { navigate } from '../router';
import { Alert, failureOf, RequestError, ScopedButton } from '../ui';

const TemplateQuery = graphql(`
  query ConsoleTemplate($id: Int!) {
    template(id: $id) {
      id
      databaseId
      name
      description
      keywords
      source
      documentation
      images {
        name
        source
        command
        expose
        ports {
          hostPort
          containerPort
          proto
        }
        links {
          service
          alias
        }
        environment {
          variable
          value
        }
      }
    }
  }
`);

const LaunchTemplate = graphql(`
  mutation ConsoleLaunchTemplate($templateId: Int!, $name: String, $imageOverrides: [OverrideImageInput!]) {
    createApp(input: { templateId: $templateId, name: $name, imageOverrides: $imageOverrides }) {
      __typename
      ... on App {
        id
        databaseId
      }
      ... on Error {
        message
      }
    }
  }
`);

/**
 * A template: its images with their ports, links and environment, and its documentation rendered
 * from Markdown. react-markdown builds React elements and never raw HTML (a template's `<script>`
 * or `javascript:` link is shown as text or dropped), and the page's CSP would refuse it anyway.
 */
export function TemplatePage({ id }: { id: number }) {
  const [{ data, error }] = useQuery({ query: TemplateQuery, variables: { id } });
  const [launching, launch] = useMutation(LaunchTemplate);
  const [name, setName] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  // Values typed over the template's environment, by image, then variable.
  const [values, setValues] = useState<Record<string, Record<string, string>>>({});
  const template = data?.template;

  const start = async () => {
    const imageOverrides = Object.entries(values)
      .filter(([, environment]) => Object.keys(environment).length > 0)
      .map(([image, environment]) => ({
        name: image,
        environment: Object.entries(environment).map(([variable, value]) => ({ variable, value })),
      }));
    const result = await launch({ templateId: id, name: name.trim() || null, imageOverrides });
    const failed = failureOf(result, 'createApp');
    setFailure(failed);
    if (!failed && result.data?.createApp.__typename === 'App') navigate(`/apps/${result.data.createApp.databaseId}`);
  };

  return (
    <section aria-labelledby="template-title">
      <p>
        <a href="#/templates">← Templates</a>
      </p>
      <RequestError error={error} />
      {template && (
        <>
          <h1 id="template-title">{template.name}</h1>
          {template.description && <p>{template.description}</p>}
          {template.keywords && <p className="muted">Keywords: {template.keywords}</p>}
          <h2>Images</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">Image</th>
                <th scope="col">Ports</th>
                <th scope="col">Links</th>
                <th scope="col">Environment</th>
              </tr>
            </thead>
            <tbody>
              {template.images.map((image) => (
                <tr key={image.name}>
                  <td>
                    {image.name}
                    <div>
                      <code>{image.source}</code>
                    </div>
                    {image.command && <div className="muted">{image.command}</div>}
                  </td>
                  <td>
                    {[
                      ...image.ports.map((p) => `${p.hostPort ? `${p.hostPort}→` : ''}${p.containerPort}${p.proto ? `/${p.proto}` : ''}`),
                      ...image.expose.map((e) => `${e} (exposed)`),
                    ].join(', ')}
                  </td>
                  <td>{image.links.map((l) => `${l.service} as ${l.alias}`).join(', ')}</td>
                  <td>
                    <ul className="inline">
                      {image.environment.map((e) => (
                        <li key={e.variable}>
                          <code>
                            {e.variable}={e.value}
                          </code>
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="card">
            <h2>Launch</h2>
            <label htmlFor="app-name">App name (optional)</label>
            <input id="app-name" value={name} onChange={(e) => setName(e.target.value)} placeholder={template.name} />
            {template.images
              .filter((image) => image.environment.length > 0)
              .map((image) => (
                <fieldset key={image.name}>
                  <legend>Environment of {image.name}</legend>
                  {image.environment.map((e) => (
                    <div key={e.variable}>
                      <label htmlFor={`launch-${image.name}-${e.variable}`}>
                        {image.name}: {e.variable}
                      </label>
                      <input
                        id={`launch-${image.name}-${e.variable}`}
                        value={values[image.name]?.[e.variable] ?? e.value}
                        onChange={(event) =>
                          setValues({ ...values, [image.name]: { ...values[image.name], [e.variable]: event.target.value } })
                        }
                      />
                    </div>
                  ))}
                </fieldset>
              ))}
            <ScopedButton scope="write" onClick={() => void start()} disabled={launching.fetching}>
              {launching.fetching ? 'Launching…' : `Launch ${template.name}`}
            </ScopedButton>
            <Alert message={failure} />
          </div>
          {template.documentation && (
            <>
              <h2>Documentation</h2>
              <div className="documentation">
                <Markdown skipHtml>{template.documentation}</Markdown>
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
