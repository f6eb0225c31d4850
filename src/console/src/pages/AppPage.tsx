import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useClient, useMutation, useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import type { ConsoleAppJournalQuery, ConsoleAppQuery } from '../gql/graphql';
import { navigate } from '../router';
import { subscriptionsOpened } from '../client';
import { Alert, failureOf, RequestError, ScopedButton, StateBadge } from '../ui';
import { History } from './History';

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
        command
        restartPolicy
        activeState
        subState
        ports {
          containerPort
          hostPort
          proto
        }
        environment {
          variable
          value
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

const UpdateService = graphql(`
  mutation ConsoleUpdateService($input: UpdateServiceInput!) {
    updateService(input: $input) {
      __typename
      ... on Service {
        id
        command
        restartPolicy
        activeState
        subState
        ports {
          containerPort
          hostPort
          proto
        }
        environment {
          variable
          value
        }
        errors {
          message
        }
      }
      ... on Error {
        message
        fields
      }
    }
  }
`);

const PreviewTemplate = graphql(`
  mutation ConsolePreviewTemplate($appId: Int!) {
    previewAppTemplate(input: { appId: $appId }) {
      __typename
      ... on TemplatePreview {
        template
      }
      ... on Error {
        message
      }
    }
  }
`);

const CreateTemplate = graphql(`
  mutation ConsoleCreateTemplate($appId: Int!, $name: String) {
    createTemplate(input: { appId: $appId, name: $name }) {
      __typename
      ... on Template {
        id
        databaseId
        name
      }
      ... on Error {
        message
      }
    }
  }
`);

const SaveTemplate = graphql(`
  mutation ConsoleSaveTemplate($id: Int!, $repo: String!) {
    saveTemplate(input: { id: $id, repo: $repo }) {
      __typename
      ... on SavedTemplate {
        path
        commit
      }
      ... on Error {
        message
      }
    }
  }
`);

const ReposQuery = graphql(`
  query ConsoleRepoNames {
    templateRepos {
      id
      name
    }
  }
`);

const DeployTargetsQuery = graphql(`
  query ConsoleDeployTargets {
    deploymentTargets {
      id
      databaseId
      name
    }
  }
`);

const DeployApp = graphql(`
  mutation ConsoleDeployApp($targetId: Int!, $appId: Int!) {
    createDeployment(input: { targetId: $targetId, appId: $appId }) {
      __typename
      ... on Deployment {
        id
        databaseId
      }
      ... on Error {
        message
      }
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
  const [{ data, fetching, error }, reread] = useQuery({ query: AppQuery, variables: { id } });
  useSubscription({ query: StatesSubscription, variables: { appId: id } });
  // A service that came up between the read and the subscription would otherwise stay as first read.
  useEffect(() => {
    const again = () => reread({ requestPolicy: 'network-only' });
    subscriptionsOpened.addEventListener('opened', again);
    return () => subscriptionsOpened.removeEventListener('opened', again);
  }, [reread]);
  const [deleting, deleteApp] = useMutation(DeleteApp);
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [editing, setEditing] = useState<number | null>(null);

  const app = data?.app;
  const editedService = app?.services?.find((s) => s.databaseId === editing);
  const remove = async () => {
    const result = await deleteApp({ id });
    const failed = failureOf(result, 'deleteApp');
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
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
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
                  <td>
                    <ScopedButton scope="write" onClick={() => setEditing(service.databaseId)}>
                      Edit {service.name}
                    </ScopedButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {editedService && <ServiceEditor key={editedService.id} appId={id} service={editedService} onDone={() => setEditing(null)} />}
          <History owner={{ appId: id }} />
          <Journal appId={id} services={(app.services ?? []).map((s) => s.name)} />
          <SaveAsTemplate appId={id} appName={app.name} />
          <DeployToTarget appId={id} />
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
          <Alert message={deleteError} />
        </>
      )}
    </section>
  );
}

type AppService = NonNullable<NonNullable<ConsoleAppQuery['app']>['services']>[number];

/** Environment as NAME=value lines, ports as [host:]container[/proto] lines. */
const envText = (service: AppService) => service.environment.map((e) => `${e.variable}=${e.value}`).join('\n');
const portsText = (service: AppService) =>
  service.ports.map((p) => `${p.hostPort ? `${p.hostPort}:` : ''}${p.containerPort}${p.proto ? `/${p.proto}` : ''}`).join('\n');
const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** Edits a service's command, restart policy, environment and ports; saving recreates its container with them. */
function ServiceEditor({ appId, service, onDone }: { appId: number; service: AppService; onDone: () => void }) {
  const [command, setCommand] = useState(service.command ?? '');
  const [restartPolicy, setRestartPolicy] = useState(service.restartPolicy ?? '');
  const [environment, setEnvironment] = useState(() => envText(service));
  const [ports, setPorts] = useState(() => portsText(service));
  const [saving, update] = useMutation(UpdateService);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsedPorts = lines(ports).map((line) => {
      const match = /^(?:(\d+):)?(\d+)(?:\/(tcp|udp))?$/.exec(line);
      return match ? { hostPort: match[1] ?? null, containerPort: match[2], proto: match[3] ?? 'tcp' } : null;
    });
    if (parsedPorts.includes(null)) return setFailure('A port is [host:]container[/tcp|udp], one per line.');
    const result = await update({
      input: {
        appId,
        id: service.databaseId,
        command: command.trim() || null,
        restartPolicy: restartPolicy.trim() || null,
        environment: lines(environment).map((line) => {
          const at = line.indexOf('=');
          return at < 0 ? { variable: line, value: '' } : { variable: line.slice(0, at), value: line.slice(at + 1) };
        }),
        ports: parsedPorts.filter((p) => p !== null),
      },
    });
    const failed = failureOf(result, 'updateService');
    setFailure(failed);
    if (!failed) onDone();
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="card" aria-labelledby="edit-title">
      <h2 id="edit-title">Edit {service.name}</h2>
      <label htmlFor="edit-command">Command</label>
      <input id="edit-command" value={command} onChange={(e) => setCommand(e.target.value)} spellCheck={false} />
      <label htmlFor="edit-restart">Restart policy (no, always, unless-stopped, on-failure[:N]; empty: the engine's)</label>
      <input id="edit-restart" value={restartPolicy} onChange={(e) => setRestartPolicy(e.target.value)} spellCheck={false} />
      <label htmlFor="edit-environment">Environment (NAME=value, one per line)</label>
      <textarea id="edit-environment" rows={4} value={environment} onChange={(e) => setEnvironment(e.target.value)} spellCheck={false} />
      <label htmlFor="edit-ports">Ports ([host:]container[/tcp|udp], one per line)</label>
      <textarea id="edit-ports" rows={2} value={ports} onChange={(e) => setPorts(e.target.value)} spellCheck={false} />
      <Alert message={failure} />
      <ScopedButton scope="write" type="submit" disabled={saving.fetching}>
        {saving.fetching ? 'Saving and recreating…' : 'Save and recreate'}
      </ScopedButton>{' '}
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}

/** Makes a template of the app: previews its .pmx, stores it, and saves it into one of the template repos. */
function SaveAsTemplate({ appId, appName }: { appId: number; appName: string }) {
  const [{ data: repos }] = useQuery({ query: ReposQuery });
  const [preview, setPreview] = useState<string | null>(null);
  const [repo, setRepo] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [, runPreview] = useMutation(PreviewTemplate);
  const [, create] = useMutation(CreateTemplate);
  const [saving, save] = useMutation(SaveTemplate);

  const showPreview = async () => {
    const result = await runPreview({ appId });
    const failed = failureOf(result, 'previewAppTemplate');
    setFailure(failed);
    if (result.data?.previewAppTemplate.__typename === 'TemplatePreview') setPreview(result.data.previewAppTemplate.template);
  };

  const saveTo = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    const created = await create({ appId, name: appName });
    const createFailed = failureOf(created, 'createTemplate');
    if (createFailed || created.data?.createTemplate.__typename !== 'Template') return setFailure(createFailed ?? 'no template');
    const result = await save({ id: created.data.createTemplate.databaseId, repo });
    const failed = failureOf(result, 'saveTemplate');
    setFailure(failed);
    if (result.data?.saveTemplate.__typename === 'SavedTemplate') setSaved(result.data.saveTemplate.path);
  };

  return (
    <>
      <h2>Save as a template</h2>
      <ScopedButton scope="read" onClick={() => void showPreview()}>
        Preview template
      </ScopedButton>
      {preview !== null && (
        <pre className="journal" role="region" tabIndex={0} aria-label="Template preview">
          {preview}
        </pre>
      )}
      <form onSubmit={(e) => void saveTo(e)} className="toolbar">
        <label htmlFor="save-repo">Template repo</label>
        <select id="save-repo" value={repo} onChange={(e) => setRepo(e.target.value)} required>
          <option value="" disabled>
            Choose a repo…
          </option>
          {repos?.templateRepos.map((r) => (
            <option key={r.id} value={r.name}>
              {r.name}
            </option>
          ))}
        </select>
        <ScopedButton scope="write" type="submit" disabled={saving.fetching}>
          Save to repo
        </ScopedButton>
      </form>
      {saved && <p role="status">Saved as {saved}.</p>}
      <Alert message={failure} />
    </>
  );
}

/** Deploys the app as it is now: its services go to the target's agent as the images of a template made from it. */
function DeployToTarget({ appId }: { appId: number }) {
  const [{ data }] = useQuery({ query: DeployTargetsQuery });
  const [targetId, setTargetId] = useState('');
  const [deploying, deploy] = useMutation(DeployApp);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await deploy({ targetId: Number(targetId), appId });
    const failed = failureOf(result, 'createDeployment');
    setFailure(failed);
    if (!failed) navigate(`/targets/${targetId}`);
  };

  return (
    <>
      <h2>Deploy to a target</h2>
      <form onSubmit={(e) => void submit(e)} className="toolbar">
        <label htmlFor="deploy-app-target">Target</label>
        <select id="deploy-app-target" value={targetId} onChange={(e) => setTargetId(e.target.value)} required>
          <option value="" disabled>
            Choose a target…
          </option>
          {data?.deploymentTargets.map((target) => (
            <option key={target.id} value={target.databaseId}>
              {target.name}
            </option>
          ))}
        </select>
        <ScopedButton scope="deploy" type="submit" disabled={deploying.fetching}>
          {deploying.fetching ? 'Deploying…' : 'Deploy app'}
        </ScopedButton>
      </form>
      <Alert message={failure} />
    </>
  );
}

type JournalLine = NonNullable<ConsoleAppJournalQuery['appJournal']>[number];

/** The app's log tail, or one service's: follows new lines every two seconds until paused; filtered as typed. */
function Journal({ appId, services }: { appId: number; services: string[] }) {
  const client = useClient();
  const [lines, setLines] = useState<JournalLine[]>([]);
  const [following, setFollowing] = useState(true);
  const [filter, setFilter] = useState('');
  const [only, setOnly] = useState('');
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
  const shown = lines.filter((l) => (!only || l.service === only) && (!needle || l.message.toLowerCase().includes(needle)));
  return (
    <>
      <h2>Log</h2>
      <div className="toolbar">
        <button type="button" onClick={() => setFollowing(!following)} aria-pressed={following}>
          {following ? 'Pause' : 'Follow'}
        </button>
        <label htmlFor="log-service">Service</label>
        <select id="log-service" value={only} onChange={(e) => setOnly(e.target.value)}>
          <option value="">All services</option>
          {services.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
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
