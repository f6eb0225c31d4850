import { useState, type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AuditFilterInput } from '../gql/graphql';
import { RequestError } from '../ui';

const AuditQuery = graphql(`
  query ConsoleAudit($filter: AuditFilterInput, $before: Int) {
    auditEvents(filter: $filter, first: 50, before: $before) {
      next
      items {
        databaseId
        at
        actorKind
        actorName
        door
        operation
        objectType
        objectId
        outcome
        clientAddress
      }
    }
  }
`);

const FIELDS = [
  { key: 'actor', label: 'Who' },
  { key: 'objectType', label: 'Object type' },
  { key: 'objectId', label: 'Object id' },
  { key: 'operation', label: 'Operation' },
] as const;

/** The audit log (admin): filtered by who, object, operation and time, a page at a time, and exported as JSON lines. */
export function AuditPage() {
  const [form, setForm] = useState<Record<string, string>>({});
  const [filter, setFilter] = useState<AuditFilterInput>({});
  const [before, setBefore] = useState<number | null>(null);
  const [{ data, error }] = useQuery({ query: AuditQuery, variables: { filter, before }, requestPolicy: 'network-only' });

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const time = (value?: string) => (value ? new Date(value).toISOString() : null);
    setFilter({
      actor: form.actor || null,
      objectType: form.objectType || null,
      objectId: form.objectId || null,
      operation: form.operation || null,
      since: time(form.since),
      until: time(form.until),
    });
    setBefore(null);
  };
  const exportUrl = `/audit_events/export?${new URLSearchParams(
    Object.entries({
      actor: filter.actor,
      object_type: filter.objectType,
      object_id: filter.objectId,
      operation: filter.operation,
      since: filter.since,
      until: filter.until,
    }).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  ).toString()}`;

  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <form onSubmit={apply} className="card" aria-label="Filters">
        {FIELDS.map((f) => (
          <span key={f.key}>
            <label htmlFor={`audit-${f.key}`}>{f.label}</label>
            <input id={`audit-${f.key}`} value={form[f.key] ?? ''} onChange={(e) => setForm({ ...form, [f.key]: e.target.value })} />
          </span>
        ))}
        <label htmlFor="audit-since">Since</label>
        <input
          id="audit-since"
          type="datetime-local"
          value={form.since ?? ''}
          onChange={(e) => setForm({ ...form, since: e.target.value })}
        />
        <label htmlFor="audit-until">Until</label>
        <input
          id="audit-until"
          type="datetime-local"
          value={form.until ?? ''}
          onChange={(e) => setForm({ ...form, until: e.target.value })}
        />
        <button type="submit">Filter</button> <a href={exportUrl}>Export as JSON lines</a>
      </form>
      <RequestError error={error} />
      {data && (
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Door</th>
              <th scope="col">Operation</th>
              <th scope="col">Object</th>
              <th scope="col">Outcome</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {data.auditEvents.items.map((e) => (
              <tr key={e.databaseId}>
                <td>{new Date(e.at).toLocaleString()}</td>
                <td>
                  {e.actorName ?? e.actorKind} <span className="scopes">({e.actorKind})</span>
                </td>
                <td>{e.door}</td>
                <td>{e.operation}</td>
                <td>{[e.objectType, e.objectId].filter(Boolean).join(' ')}</td>
                <td>{e.outcome}</td>
                <td>{e.clientAddress ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data?.auditEvents.next != null && (
        <button type="button" onClick={() => setBefore(data.auditEvents.next)}>
          Older
        </button>
      )}
    </section>
  );
}
