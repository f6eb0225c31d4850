import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { HookKind } from '../gql/graphql';
import { Alert, failureOf, RequestError, ScopedButton } from '../ui';

export const ConsoleHookFields = graphql(`
  fragment ConsoleHook on DeployHook {
    databaseId
    name
    kind
    url
    appId
    targetId
    deploymentId
    templateRepoId
    allowTag
    lastUsedAt
    calls(last: 5) {
      databaseId
      deliveryId
      event
      status
      message
      receivedAt
    }
  }
`);

const HooksQuery = graphql(`
  query ConsoleHooks {
    deployHooks {
      ...ConsoleHook
    }
  }
`);

const CreateHook = graphql(`
  mutation ConsoleCreateHook($input: CreateDeployHookInput!) {
    createDeployHook(input: $input) {
      __typename
      ... on IssuedDeployHook {
        secret
        hook {
          ...ConsoleHook
        }
      }
      ... on Error {
        message
      }
    }
  }
`);

const RotateHook = graphql(`
  mutation ConsoleRotateHook($id: Int!) {
    rotateDeployHookSecret(input: { id: $id }) {
      __typename
      ... on IssuedDeployHook {
        secret
        hook {
          ...ConsoleHook
        }
      }
      ... on Error {
        message
      }
    }
  }
`);

const RevokeHook = graphql(`
  mutation ConsoleRevokeHook($id: Int!) {
    revokeDeployHook(input: { id: $id }) {
      __typename
      ... on Error {
        message
      }
    }
  }
`);

const KINDS: HookKind[] = ['generic', 'github', 'gitlab', 'registry'];
type Owner = 'app' | 'deployment' | 'templateRepo';

/** Copies a text to the clipboard, saying so. */
function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <button type="button" onClick={copy}>
      {copied ? 'Copied' : `Copy ${label}`}
    </button>
  );
}

/** Deploy hooks: made with the URL and secret shown once, their last calls, rotation and revocation. */
export function HooksPage() {
  const [{ data, error }, refetch] = useQuery({ query: HooksQuery, requestPolicy: 'cache-and-network' });
  const [, create] = useMutation(CreateHook);
  const [, rotate] = useMutation(RotateHook);
  const [, revoke] = useMutation(RevokeHook);
  const [owner, setOwner] = useState<Owner>('app');
  const [ids, setIds] = useState({ first: '', second: '' });
  const [kind, setKind] = useState<HookKind>('generic');
  const [name, setName] = useState('');
  const [allowTag, setAllowTag] = useState(false);
  const [issued, setIssued] = useState<{ url: string; secret: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const absolute = (url: string) => (url.startsWith('/') ? `${window.location.origin}${url}` : url);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const first = Number(ids.first);
    const input =
      owner === 'app'
        ? { appId: first, allowTag }
        : owner === 'templateRepo'
          ? { templateRepoId: first }
          : { targetId: first, deploymentId: Number(ids.second) };
    const result = await create({ input: { ...input, kind, name: name || null } });
    const failed = failureOf(result, 'createDeployHook');
    if (failed) return setFailure(failed);
    const answer = result.data?.createDeployHook;
    if (answer?.__typename === 'IssuedDeployHook') setIssued({ url: absolute(answer.hook.url), secret: answer.secret });
    refetch({ requestPolicy: 'network-only' });
  };
  const doRotate = async (id: number) => {
    const result = await rotate({ id });
    setFailure(failureOf(result, 'rotateDeployHookSecret'));
    const answer = result.data?.rotateDeployHookSecret;
    if (answer?.__typename === 'IssuedDeployHook') setIssued({ url: absolute(answer.hook.url), secret: answer.secret });
  };
  const doRevoke = async (id: number) => {
    setFailure(failureOf(await revoke({ id }), 'revokeDeployHook'));
    refetch({ requestPolicy: 'network-only' });
  };

  return (
    <section aria-labelledby="hooks-title">
      <h1 id="hooks-title">Deploy hooks</h1>
      <form onSubmit={(e) => void submit(e)} className="card" aria-labelledby="new-hook-title">
        <h2 id="new-hook-title">New hook</h2>
        <label htmlFor="hook-owner">Redeploys</label>
        <select id="hook-owner" value={owner} onChange={(e) => setOwner(e.target.value as Owner)}>
          <option value="app">an app</option>
          <option value="deployment">a deployment</option>
          <option value="templateRepo">a template repo (reload)</option>
        </select>
        <label htmlFor="hook-first">{owner === 'app' ? 'App id' : owner === 'templateRepo' ? 'Template repo id' : 'Target id'}</label>
        <input id="hook-first" inputMode="numeric" required value={ids.first} onChange={(e) => setIds({ ...ids, first: e.target.value })} />
        {owner === 'deployment' && (
          <>
            <label htmlFor="hook-second">Deployment id</label>
            <input
              id="hook-second"
              inputMode="numeric"
              required
              value={ids.second}
              onChange={(e) => setIds({ ...ids, second: e.target.value })}
            />
          </>
        )}
        <label htmlFor="hook-kind">Sender</label>
        <select id="hook-kind" value={kind} onChange={(e) => setKind(e.target.value as HookKind)}>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        <label htmlFor="hook-name">Name</label>
        <input id="hook-name" value={name} onChange={(e) => setName(e.target.value)} />
        {owner === 'app' && (
          <label>
            <input type="checkbox" checked={allowTag} onChange={(e) => setAllowTag(e.target.checked)} /> A call may name the image tag
          </label>
        )}
        <ScopedButton scope="write" type="submit">
          Make hook
        </ScopedButton>
      </form>
      {issued && (
        <div className="card issued" role="status">
          <p>The hook's URL and secret; the secret is shown this once:</p>
          <code data-testid="hook-url">{issued.url}</code> <CopyButton text={issued.url} label="URL" />
          <br />
          <code className="secret" data-testid="hook-secret">
            {issued.secret}
          </code>{' '}
          <CopyButton text={issued.secret} label="secret" />
        </div>
      )}
      <Alert message={failure} />
      <RequestError error={error} />
      {data?.deployHooks.map((hook) => (
        <article key={hook.databaseId} className="card" aria-label={`Hook ${hook.name}`}>
          <h2>
            {hook.name} <span className="scopes">({hook.kind})</span>
          </h2>
          <p>
            {hook.appId != null && `App ${hook.appId}`}
            {hook.targetId != null && `Deployment ${hook.deploymentId} on target ${hook.targetId}`}
            {hook.templateRepoId != null && `Template repo ${hook.templateRepoId}`}
            {hook.allowTag && ', may switch tags'} · <code>{absolute(hook.url)}</code>
          </p>
          <table>
            <caption>Last deliveries</caption>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Delivery</th>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {hook.calls.map((call) => (
                <tr key={call.databaseId}>
                  <td>{new Date(call.receivedAt).toLocaleString()}</td>
                  <td>{call.deliveryId ?? '—'}</td>
                  <td>{call.event ?? '—'}</td>
                  <td>{call.status}</td>
                  <td>{call.message ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <ScopedButton scope="write" onClick={() => void doRotate(hook.databaseId)}>
            Rotate secret of {hook.name}
          </ScopedButton>{' '}
          <ScopedButton scope="write" className="danger" onClick={() => void doRevoke(hook.databaseId)}>
            Revoke {hook.name}
          </ScopedButton>
        </article>
      ))}
    </section>
  );
}
