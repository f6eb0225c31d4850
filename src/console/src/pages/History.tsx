import { useState } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import type { ConsoleRevisionDiffFieldsFragment, ConsoleRevisionFieldsFragment } from '../gql/graphql';
import { Alert, failureOf, RequestError, ScopedButton } from '../ui';

export const RevisionFields = graphql(`
  fragment ConsoleRevisionFields on Revision {
    number
    action
    rollbackOf
    outcome
    error
    current
    createdAt
    deploymentId
    author {
      kind
      name
    }
    images {
      name
      digest
      note
    }
  }
`);

export const DiffFields = graphql(`
  fragment ConsoleRevisionDiffFields on RevisionDiff {
    from
    to
    unified
    images {
      image
      change
      fields {
        field
        old
        new
        secret
      }
    }
  }
`);

const AppHistoryQuery = graphql(`
  query ConsoleAppHistory($id: Int!) {
    app(id: $id) {
      id
      revisions(first: 50) {
        nodes {
          ...ConsoleRevisionFields
        }
      }
    }
  }
`);

const DeploymentHistoryQuery = graphql(`
  query ConsoleDeploymentHistory($targetId: Int!, $id: Int!) {
    deployment(targetId: $targetId, id: $id) {
      id
      revisions(first: 50) {
        nodes {
          ...ConsoleRevisionFields
        }
      }
    }
  }
`);

const AppDiffQuery = graphql(`
  query ConsoleRevisionDiff($id: Int!, $from: Int!, $to: Int!) {
    app(id: $id) {
      id
      revisionDiff(from: $from, to: $to) {
        ...ConsoleRevisionDiffFields
      }
    }
  }
`);

const DeploymentDiffQuery = graphql(`
  query ConsoleDeploymentRevisionDiff($targetId: Int!, $id: Int!, $from: Int!, $to: Int!) {
    deployment(targetId: $targetId, id: $id) {
      id
      revisionDiff(from: $from, to: $to) {
        ...ConsoleRevisionDiffFields
      }
    }
  }
`);

const RollbackApp = graphql(`
  mutation ConsoleRollbackApp($appId: Int!, $revision: Int!) {
    rollbackApp(input: { appId: $appId, revision: $revision }) {
      __typename
      ... on Revision {
        number
        outcome
      }
      ... on Error {
        message
      }
    }
  }
`);

const RollbackDeployment = graphql(`
  mutation ConsoleRollbackDeployment($targetId: Int!, $deploymentId: Int!, $revision: Int!) {
    rollbackDeployment(input: { targetId: $targetId, deploymentId: $deploymentId, revision: $revision }) {
      __typename
      ... on Revision {
        number
        outcome
        deploymentId
      }
      ... on Error {
        message
      }
    }
  }
`);

const Progress = graphql(`
  subscription ConsoleRevisionProgress($appId: Int, $targetId: Int, $deploymentId: Int) {
    revisionChanged(appId: $appId, targetId: $targetId, deploymentId: $deploymentId) {
      number
      outcome
      step
    }
  }
`);

/** Whose history: an app, or a deployment of a target. */
export type HistoryOwner = { appId: number } | { targetId: number; deploymentId: number; name: string };

const short = (digest: string | null | undefined) => (digest ? digest.replace(/^sha256:/, '').slice(0, 12) : 'unknown');
const text = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

/** What changed from one revision to another: per image and field, then the unified diff of the rendered YAML. */
function Diff({ owner, from, to }: { owner: HistoryOwner; from: number; to: number }) {
  const isApp = 'appId' in owner;
  const [app] = useQuery({
    query: AppDiffQuery,
    variables: { id: isApp ? owner.appId : 0, from, to },
    pause: !isApp,
    requestPolicy: 'network-only',
  });
  const [deployment] = useQuery({
    query: DeploymentDiffQuery,
    variables: isApp ? { targetId: 0, id: 0, from, to } : { targetId: owner.targetId, id: owner.deploymentId, from, to },
    pause: isApp,
    requestPolicy: 'network-only',
  });
  const { error, fetching } = isApp ? app : deployment;
  const diff: ConsoleRevisionDiffFieldsFragment | undefined = isApp
    ? app.data?.app?.revisionDiff
    : deployment.data?.deployment?.revisionDiff;
  return (
    <div aria-label={`Diff of revisions ${from} and ${to}`} role="region">
      <RequestError error={error} />
      {fetching && !diff && <p className="loading">Loading…</p>}
      {diff && (
        <>
          {diff.images.length === 0 && <p>No change.</p>}
          <ul>
            {diff.images.flatMap((image) =>
              image.fields.map((f) => (
                <li key={`${image.image}-${f.field}`}>
                  <code>{image.image}</code> {f.field}: {f.secret ? 'changed (secret)' : `${text(f.old)} → ${text(f.new)}`}
                </li>
              )),
            )}
          </ul>
          <pre data-testid="unified-diff">{diff.unified}</pre>
        </>
      )}
    </div>
  );
}

/** An app's or a deployment's revisions: who, when, outcome and digests; the diff of any two; a rollback confirmed with its diff. */
export function History({ owner, onRolledBack }: { owner: HistoryOwner; onRolledBack?: (deploymentId: number | null) => void }) {
  const isApp = 'appId' in owner;
  const [app, reloadApp] = useQuery({
    query: AppHistoryQuery,
    variables: { id: isApp ? owner.appId : 0 },
    pause: !isApp,
    requestPolicy: 'network-only',
  });
  const [deployment, reloadDeployment] = useQuery({
    query: DeploymentHistoryQuery,
    variables: isApp ? { targetId: 0, id: 0 } : { targetId: owner.targetId, id: owner.deploymentId },
    pause: isApp,
    requestPolicy: 'network-only',
  });
  const error = isApp ? app.error : deployment.error;
  const reload = () => (isApp ? reloadApp : reloadDeployment)({ requestPolicy: 'network-only' });
  const [compare, setCompare] = useState<number[]>([]);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [rollingApp, rollbackApp] = useMutation(RollbackApp);
  const [rollingDeployment, rollbackDeployment] = useMutation(RollbackDeployment);
  const rolling = isApp ? rollingApp : rollingDeployment;
  const [progress] = useSubscription(
    { query: Progress, variables: isApp ? { appId: owner.appId } : { targetId: owner.targetId, deploymentId: owner.deploymentId } },
    (_last, event) => event,
  );
  const revisions: ConsoleRevisionFieldsFragment[] =
    (isApp ? app.data?.app?.revisions.nodes : deployment.data?.deployment?.revisions.nodes) ?? [];
  const current = revisions.find((r) => r.current);
  const live = progress.data?.revisionChanged;

  const toggle = (number: number) =>
    setCompare((chosen) => (chosen.includes(number) ? chosen.filter((n) => n !== number) : [...chosen, number].slice(-2)));
  const roll = async (number: number) => {
    setFailure(null);
    setConfirming(null);
    if (isApp) {
      setFailure(failureOf(await rollbackApp({ appId: owner.appId, revision: number }), 'rollbackApp'));
      return reload();
    }
    const result = await rollbackDeployment({ targetId: owner.targetId, deploymentId: owner.deploymentId, revision: number });
    const failed = failureOf(result, 'rollbackDeployment');
    setFailure(failed);
    // A new deployment replaced it (an agent of the original protocol): its owner shows the new one.
    const made = result.data?.rollbackDeployment;
    if (!failed) onRolledBack?.(made?.__typename === 'Revision' ? (made.deploymentId ?? null) : null);
    reload();
  };
  const [a, b] = [...compare].sort((x, y) => x - y);
  const titleId = isApp ? 'history-title' : `history-${owner.targetId}-${owner.deploymentId}`;

  return (
    <section aria-labelledby={titleId}>
      <h2 id={titleId}>{isApp ? 'History' : `History of ${owner.name}`}</h2>
      <RequestError error={error} />
      {live && live.outcome === 'in progress' && (
        <p role="status">
          Revision {live.number}: {live.step ?? 'starting'}
        </p>
      )}
      {live && live.outcome !== 'in progress' && (
        <p role="status">
          Revision {live.number} {live.outcome}
          {live.step ? `: ${live.step}` : ''}
        </p>
      )}
      <table>
        <thead>
          <tr>
            <th scope="col">Revision</th>
            <th scope="col">What</th>
            <th scope="col">Who</th>
            <th scope="col">When</th>
            <th scope="col">Outcome</th>
            <th scope="col">Digests</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {revisions.map((r) => (
            <tr key={r.number} data-revision={r.number}>
              <td>
                <label>
                  <input type="checkbox" checked={compare.includes(r.number)} onChange={() => toggle(r.number)} /> Compare revision{' '}
                  {r.number}
                </label>
              </td>
              <td>{r.action + (r.rollbackOf ? ` to ${r.rollbackOf}` : '')}</td>
              <td>{r.author.name}</td>
              <td>{new Date(r.createdAt).toLocaleString()}</td>
              <td>
                {r.outcome}
                {r.current ? ' (current)' : ''}
                {r.error && <span className="error"> {r.error}</span>}
              </td>
              <td>
                {r.images.map((i) => (
                  <div key={i.name} title={i.note ?? undefined}>
                    <code>
                      {i.name}@{short(i.digest)}
                    </code>
                  </div>
                ))}
              </td>
              <td>
                {!r.current && r.outcome !== 'in progress' && (
                  <ScopedButton scope={isApp ? 'write' : 'deploy'} onClick={() => setConfirming(r.number)}>
                    Roll back to revision {r.number}…
                  </ScopedButton>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {a !== undefined && b !== undefined && <Diff owner={owner} from={a} to={b} />}
      {confirming !== null && current && (
        <div role="group" aria-label="Confirm rollback" className="confirm">
          <p>
            Roll back from revision {current.number} to revision {confirming}? Its images run by their digests; the old containers go once
            the new ones are healthy.
          </p>
          <Diff owner={owner} from={current.number} to={confirming} />
          <button type="button" onClick={() => void roll(confirming)} disabled={rolling.fetching}>
            Roll back to revision {confirming}
          </button>
          <button type="button" onClick={() => setConfirming(null)}>
            Cancel
          </button>
        </div>
      )}
      <Alert message={failure} />
    </section>
  );
}
