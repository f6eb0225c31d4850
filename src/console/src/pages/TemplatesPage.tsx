import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { navigate } from '../router';
import { Alert, failureOf, RequestError, ScopedButton } from '../ui';

const SearchQuery = graphql(`
  query ConsoleSearch($q: String!) {
    search(q: $q, limit: 30) {
      items {
        __typename
        name
        description
        source
        imageCount
        images {
          name
          source
        }
        ... on Template {
          id
          databaseId
          keywords
        }
        ... on RegistryImageTemplate {
          registryId
          registryName
          starCount
          isOfficial
        }
      }
      errors {
        message
      }
    }
  }
`);

const CreateApp = graphql(`
  mutation ConsoleCreateApp($input: CreateAppInput!) {
    createApp(input: $input) {
      __typename
      ... on App {
        id
        databaseId
        name
      }
      ... on Error {
        code
        message
        fields
      }
    }
  }
`);

export function TemplatesPage() {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [{ data, fetching, error }] = useQuery({ query: SearchQuery, variables: { q }, pause: q === '' });
  const [launching, createApp] = useMutation(CreateApp);
  const [launchError, setLaunchError] = useState<string | null>(null);

  const launch = async (input: Parameters<typeof createApp>[0]['input']) => {
    setLaunchError(null);
    const result = await createApp({ input });
    const failed = failureOf(result, 'createApp');
    if (failed) return setLaunchError(failed);
    if (result.data?.createApp.__typename === 'App') navigate(`/apps/${result.data.createApp.databaseId}`);
  };

  const search = (event: FormEvent) => {
    event.preventDefault();
    setQ(typed.trim());
  };

  return (
    <section aria-labelledby="templates-title">
      <h1 id="templates-title">Templates and images</h1>
      <form role="search" onSubmit={search} className="toolbar">
        <label htmlFor="search">Search templates and registry images</label>
        <input id="search" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="wordpress, redis…" />
        <button type="submit">Search</button>
      </form>
      <RequestError error={error} />
      <Alert message={launchError} />
      {fetching && <p className="loading">Searching…</p>}
      {data?.search.errors.map((e, i) => (
        <p key={i} className="muted">
          {e.message}
        </p>
      ))}
      {data && data.search.items.length === 0 && <p>Nothing matches “{q}”.</p>}
      <ul className="results">
        {data?.search.items.map((item) => (
          <li key={item.__typename === 'Template' ? item.id : `${item.__typename}:${item.source}`} className="card">
            <h2>
              {item.__typename === 'Template' ? (
                <a href={`#/templates/${item.databaseId}`}>
                  <Highlight text={item.name} query={q} />
                </a>
              ) : (
                <Highlight text={item.name} query={q} />
              )}
            </h2>
            <p className="muted">
              {item.__typename === 'Template' ? 'Template' : `Image on ${item.registryName}`} · {item.imageCount} image
              {item.imageCount === 1 ? '' : 's'}
              {item.images.length > 0 && `: ${item.images.map((i) => i.source).join(', ')}`}
            </p>
            {item.description && (
              <p>
                <Highlight text={item.description} query={q} />
              </p>
            )}
            <ScopedButton
              scope="write"
              disabled={launching.fetching}
              onClick={() =>
                void launch(
                  item.__typename === 'Template'
                    ? { templateId: item.databaseId }
                    : { image: item.source ?? item.name, registryId: item.__typename === 'RegistryImageTemplate' ? item.registryId : null },
                )
              }
            >
              Launch {item.name}
            </ScopedButton>
          </li>
        ))}
      </ul>
      <ComposeLaunch onLaunch={(input) => void launch(input)} busy={launching.fetching} />
    </section>
  );
}

/** Launch from a pasted compose file, with values for its ${VAR} substitutions. */
function ComposeLaunch({
  onLaunch,
  busy,
}: {
  onLaunch: (input: { composeYaml: string; name?: string; environment?: Record<string, string> }) => void;
  busy: boolean;
}) {
  const [yaml, setYaml] = useState('');
  const [name, setName] = useState('');
  const [env, setEnv] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const environment = Object.fromEntries(
      env
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#') && line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    onLaunch({
      composeYaml: yaml,
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(Object.keys(environment).length ? { environment } : {}),
    });
  };
  return (
    <form onSubmit={submit} className="card" aria-labelledby="compose-title">
      <h2 id="compose-title">Launch a compose file</h2>
      <label htmlFor="compose-yaml">Compose file (YAML)</label>
      <textarea id="compose-yaml" rows={8} value={yaml} onChange={(e) => setYaml(e.target.value)} required spellCheck={false} />
      <label htmlFor="compose-name">App name (optional)</label>
      <input id="compose-name" value={name} onChange={(e) => setName(e.target.value)} />
      <label htmlFor="compose-env">Values for ${'{VAR}'} substitutions, one NAME=value per line (optional)</label>
      <textarea id="compose-env" rows={3} value={env} onChange={(e) => setEnv(e.target.value)} spellCheck={false} />
      <ScopedButton scope="write" type="submit" disabled={busy}>
        Launch compose file
      </ScopedButton>
    </form>
  );
}

/** The text with each word of the query marked where it occurs (React escapes the text itself). */
function Highlight({ text, query }: { text: string; query: string }) {
  const words = query
    .split(/\s+/)
    .filter((w) => w.length > 1)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (words.length === 0) return <>{text}</>;
  const parts = text.split(new RegExp(`(${words.join('|')})`, 'gi'));
  return <>{parts.map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part))}</>;
}
