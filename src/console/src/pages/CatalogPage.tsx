import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, type CombinedError } from 'urql';
import { graphql } from '../gql';
import { Alert, failureOf, RequestError, ScopedButton } from '../ui';

const CatalogQuery = graphql(`
  query ConsoleCatalog {
    templateRepos {
      id
      databaseId
      name
      templateCount
      updatedAt
      loadErrors {
        file
        line
        message
      }
    }
    registries {
      id
      databaseId
      name
      endpointUrl
      enabled
      hasCredentials
    }
  }
`);

const AddRepo = graphql(`
  mutation ConsoleAddRepo($name: String!) {
    createTemplateRepo(input: { name: $name }) {
      __typename
      ... on TemplateRepo {
        id
      }
      ... on Error {
        message
      }
    }
  }
`);

const ReloadRepo = graphql(`
  mutation ConsoleReloadRepo($id: Int!) {
    reloadTemplateRepo(input: { id: $id }) {
      __typename
      ... on TemplateRepo {
        id
        templateCount
        updatedAt
        loadErrors {
          file
          line
          message
        }
      }
      ... on Error {
        message
      }
    }
  }
`);

const AddRegistry = graphql(`
  mutation ConsoleAddRegistry($input: CreateRegistryInput!) {
    createRegistry(input: $input) {
      __typename
      ... on Registry {
        id
      }
      ... on Error {
        message
      }
    }
  }
`);

const UpdateRegistry = graphql(`
  mutation ConsoleUpdateRegistry($input: UpdateRegistryInput!) {
    updateRegistry(input: $input) {
      __typename
      ... on Registry {
        id
        name
        endpointUrl
        enabled
        hasCredentials
      }
      ... on Error {
        message
      }
    }
  }
`);

/** Template repos (add, reload, each file's load errors) and registries (add, enable/disable, credentials write-only). */
export function CatalogPage() {
  const [{ data, error }] = useQuery({ query: CatalogQuery });
  const [, addRepo] = useMutation(AddRepo);
  const [, reloadRepo] = useMutation(ReloadRepo);
  const [, addRegistry] = useMutation(AddRegistry);
  const [, updateRegistry] = useMutation(UpdateRegistry);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [repo, setRepo] = useState('');
  const [registry, setRegistry] = useState({ name: '', endpointUrl: '', username: '', password: '' });
  const [editing, setEditing] = useState<number | null>(null);
  const editedRegistry = data?.registries.find((r) => r.databaseId === editing);

  /** Runs a mutation, showing its error, and says whether it succeeded. */
  const run = async <D,>(label: string, mutate: () => Promise<{ error?: CombinedError; data?: D }>, field: keyof D) => {
    setBusy(label);
    setFailure(null);
    const result = await mutate();
    setBusy(null);
    const failed = failureOf(result, field);
    setFailure(failed);
    return !failed;
  };

  const submitRepo = async (event: FormEvent) => {
    event.preventDefault();
    if (await run('repo', () => addRepo({ name: repo.trim() }), 'createTemplateRepo')) setRepo('');
  };

  const submitRegistry = async (event: FormEvent) => {
    event.preventDefault();
    const { name, endpointUrl, username, password } = registry;
    const input = { name, endpointUrl, ...(username ? { username, password } : {}) };
    if (await run('registry', () => addRegistry({ input }), 'createRegistry'))
      setRegistry({ name: '', endpointUrl: '', username: '', password: '' });
  };

  return (
    <section aria-labelledby="catalog-title">
      <h1 id="catalog-title">Catalog</h1>
      <RequestError error={error} />
      <Alert message={failure} />
      <h2>Template repos</h2>
      {data && (
        <table>
          <thead>
            <tr>
              <th scope="col">Repo</th>
              <th scope="col">Templates</th>
              <th scope="col">Problems</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.templateRepos.map((r) => (
              <tr key={r.id}>
                <td>
                  <code>{r.name}</code>
                </td>
                <td>{r.templateCount}</td>
                <td>
                  {r.loadErrors.length === 0 ? (
                    <span className="muted">none</span>
                  ) : (
                    <ul className="inline">
                      {r.loadErrors.map((e, i) => (
                        <li key={i} className="error">
                          {e.file}
                          {e.line ? `:${e.line}` : ''}: {e.message}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>
                  <ScopedButton
                    scope="write"
                    disabled={busy === `reload-${r.databaseId}`}
                    onClick={() => void run(`reload-${r.databaseId}`, () => reloadRepo({ id: r.databaseId }), 'reloadTemplateRepo')}
                  >
                    {busy === `reload-${r.databaseId}` ? 'Reloading…' : `Reload ${r.name}`}
                  </ScopedButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form onSubmit={(e) => void submitRepo(e)} className="card" aria-labelledby="add-repo-title">
        <h3 id="add-repo-title">Add a template repo</h3>
        <label htmlFor="repo-name">Git URL, GitHub owner/name, or a server path under the configured roots</label>
        <input id="repo-name" value={repo} onChange={(e) => setRepo(e.target.value)} required />
        <ScopedButton scope="write" type="submit" disabled={busy === 'repo'}>
          {busy === 'repo' ? 'Adding…' : 'Add repo'}
        </ScopedButton>
      </form>

      <h2>Registries</h2>
      {data && (
        <table>
          <thead>
            <tr>
              <th scope="col">Registry</th>
              <th scope="col">Credentials</th>
              <th scope="col">Searched</th>
            </tr>
          </thead>
          <tbody>
            {data.registries.map((r) => (
              <tr key={r.id}>
                <td>
                  {r.name}
                  <div className="muted">{r.endpointUrl}</div>
                </td>
                <td>{r.hasCredentials ? 'set (write-only)' : 'none'}</td>
                <td>
                  <ScopedButton
                    scope="write"
                    onClick={() =>
                      void run(
                        `registry-${r.databaseId}`,
                        () => updateRegistry({ input: { id: r.databaseId, enabled: !r.enabled } }),
                        'updateRegistry',
                      )
                    }
                  >
                    {r.enabled ? `Disable ${r.name}` : `Enable ${r.name}`}
                  </ScopedButton>{' '}
                  <ScopedButton scope="write" onClick={() => setEditing(r.databaseId)}>
                    Edit {r.name}
                  </ScopedButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editedRegistry && (
        <RegistryEditor
          key={editedRegistry.id}
          registry={editedRegistry}
          onSave={async (changes) => {
            if (
              await run('edit-registry', () => updateRegistry({ input: { id: editedRegistry.databaseId, ...changes } }), 'updateRegistry')
            )
              setEditing(null);
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      <form onSubmit={(e) => void submitRegistry(e)} className="card" aria-labelledby="add-registry-title">
        <h3 id="add-registry-title">Add a registry</h3>
        <label htmlFor="registry-name">Name</label>
        <input id="registry-name" value={registry.name} onChange={(e) => setRegistry({ ...registry, name: e.target.value })} required />
        <label htmlFor="registry-url">Endpoint URL</label>
        <input
          id="registry-url"
          type="url"
          value={registry.endpointUrl}
          onChange={(e) => setRegistry({ ...registry, endpointUrl: e.target.value })}
          required
        />
        <label htmlFor="registry-user">Username (optional)</label>
        <input
          id="registry-user"
          value={registry.username}
          onChange={(e) => setRegistry({ ...registry, username: e.target.value })}
          autoComplete="off"
        />
        <label htmlFor="registry-password">Password (optional; never shown again)</label>
        <input
          id="registry-password"
          type="password"
          value={registry.password}
          onChange={(e) => setRegistry({ ...registry, password: e.target.value })}
          autoComplete="new-password"
        />
        <ScopedButton scope="write" type="submit" disabled={busy === 'registry'}>
          Add registry
        </ScopedButton>
      </form>
    </section>
  );
}

interface RegistryChanges {
  name: string;
  endpointUrl: string;
  username?: string;
  password?: string;
}

/** Edits a registry: name and URL shown; credentials write-only (left blank, they stay as they are). */
function RegistryEditor(props: {
  registry: { name: string; endpointUrl: string; hasCredentials: boolean };
  onSave: (changes: RegistryChanges) => Promise<void>;
  onCancel: () => void;
}) {
  const [name, setName] = useState(props.registry.name);
  const [endpointUrl, setEndpointUrl] = useState(props.registry.endpointUrl);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void props.onSave({ name, endpointUrl, ...(username ? { username, password } : {}) });
  };
  return (
    <form onSubmit={submit} className="card" aria-labelledby="edit-registry-title">
      <h3 id="edit-registry-title">Edit {props.registry.name}</h3>
      <label htmlFor="edit-registry-name">Registry name</label>
      <input id="edit-registry-name" value={name} onChange={(e) => setName(e.target.value)} required />
      <label htmlFor="edit-registry-url">Registry endpoint URL</label>
      <input id="edit-registry-url" type="url" value={endpointUrl} onChange={(e) => setEndpointUrl(e.target.value)} required />
      <label htmlFor="edit-registry-user">
        New username ({props.registry.hasCredentials ? 'blank keeps the stored credentials' : 'optional'})
      </label>
      <input id="edit-registry-user" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" />
      <label htmlFor="edit-registry-password">New password</label>
      <input
        id="edit-registry-password"
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        autoComplete="new-password"
      />
      <ScopedButton scope="write" type="submit">
        Save registry
      </ScopedButton>{' '}
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </form>
  );
}
