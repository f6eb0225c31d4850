import { useState } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import { Alert, failureOf, RequestError, ScopedButton } from '../ui';

const HistoryQuery = graphql(`
  query ConsoleAppHistory($id: Int!) {
    app(id: $id) {
      id
      revisions(first: 50) {
        nodes {
          number
          action
          rollbackOf
          outcome
          error
          current
          createdAt
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
      }
    }
  }
`);

const DiffQuery = graphql(`
  query ConsoleRevisionDiff($id: Int!, $from: Int!, $to: Int!) {
    app(id: $id) {
      id
      revisionDiff(from: $from, to: $to) {
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
    }
  }
`);

const Rollback = graphql(`
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

const Progress = graphql(`
  subscription ConsoleRevisionProgress($appId: Int!) {
    revisionChanged(appId: $appId) {
      number
      outcome
      step
    }
  }
`);

const short = (digest: string | null | undefined) => (digest ? digest.replace(/^sha256:/, '').slice(0, 12) : 'unknown');
const text = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value));

/** What changed from one revision to another: per image and field, then the unified diff of the rendered YAML. */
function Diff({ appId, from, to }: { appId: number; from: number; to: number }) {
  const [{ data, error, fetching }] = useQuery({ query: DiffQuery, variables: { id: appId, from, to }, requestPolicy: 'network-only' });
  const diff = data?.app?.revisionDiff;
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

/** The app's revisions: who, when, outcome and digests; the diff of any two; a rollback confirmed with its diff. */
export function History({ appId }: { appId: number }) {
  const [{ data, error }, reload] = useQuery({ query: HistoryQuery, variables: { id: appId }, requestPolicy: 'network-only' });
  const [compare, setCompare] = useState<number[]>([]);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [rolling, rollback] = useMutation(Rollback);
  const [progress] = useSubscription({ query: Progress, variables: { appId } }, (_last, event) => event);
  const revisions = data?.app?.revisions.nodes ?? [];
  const current = revisions.find((r) => r.current);
  const live = progress.data?.revisionChanged;

  const toggle = (number: number) =>
    setCompare((chosen) => (chosen.includes(number) ? chosen.filter((n) => n !== number) : [...chosen, number].slice(-2)));
  const roll = async (number: number) => {
    setFailure(null);
    const result = await rollback({ appId, revision: number });
    setConfirming(null);
    setFailure(failureOf(result, 'rollbackApp'));
    reload({ requestPolicy: 'network-only' });
  };
  const [a, b] = [...compare].sort((x, y) => x - y);

  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
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
                  <ScopedButton scope="write" onClick={() => setConfirming(r.number)}>
                    Roll back to revision {r.number}…
                  </ScopedButton>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {a !== undefined && b !== undefined && <Diff appId={appId} from={a} to={b} />}
      {confirming !== null && current && (
        <div role="group" aria-label="Confirm rollback" className="confirm">
          <p>
            Roll back from revision {current.number} to revision {confirming}? Its images run by their digests; the old containers go once
            the new ones are healthy.
          </p>
          <Diff appId={appId} from={current.number} to={confirming} />
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
