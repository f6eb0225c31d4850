import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { Alert, failureOf, RequestError, ScopedButton } from '../ui';

const SubscriptionsQuery = graphql(`
  query ConsoleEventSubscriptions {
    eventTypes {
      name
      description
    }
    eventSubscriptions {
      databaseId
      url
      eventTypes
      enabled
      disabledReason
      pending
      deliveries(last: 10) {
        databaseId
        eventId
        eventType
        attempt
        status
        responseCode
        durationMs
        responseExcerpt
        error
        at
      }
    }
  }
`);

const CreateSubscription = graphql(`
  mutation ConsoleCreateSubscription($input: CreateEventSubscriptionInput!) {
    createEventSubscription(input: $input) {
      __typename
      ... on IssuedEventSubscription {
        secret
        subscription {
          databaseId
        }
      }
      ... on Error {
        message
      }
    }
  }
`);

const Resend = graphql(`
  mutation ConsoleResendDelivery($id: Int!) {
    resendEventDelivery(input: { id: $id }) {
      __typename
      ... on Error {
        message
      }
    }
  }
`);

const SetEnabled = graphql(`
  mutation ConsoleSetSubscriptionEnabled($id: Int!, $enabled: Boolean!) {
    updateEventSubscription(input: { id: $id, enabled: $enabled }) {
      __typename
      ... on EventSubscription {
        databaseId
        enabled
        disabledReason
      }
      ... on Error {
        message
      }
    }
  }
`);

/** Event subscriptions (admin): a URL per subscription, its secret once, its delivery log with resend. */
export function EventsPage() {
  const [{ data, error }, refetch] = useQuery({ query: SubscriptionsQuery, requestPolicy: 'cache-and-network' });
  const [, create] = useMutation(CreateSubscription);
  const [, resend] = useMutation(Resend);
  const [, setEnabled] = useMutation(SetEnabled);
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const [secret, setSecret] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const reload = () => refetch({ requestPolicy: 'network-only' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const result = await create({ input: { url, eventTypes: types } });
    const failed = failureOf(result, 'createEventSubscription');
    if (failed) return setFailure(failed);
    const answer = result.data?.createEventSubscription;
    if (answer?.__typename === 'IssuedEventSubscription') setSecret(answer.secret);
    setUrl('');
    reload();
  };
  const doResend = async (id: number) => {
    setFailure(failureOf(await resend({ id }), 'resendEventDelivery'));
    reload();
  };
  const toggle = async (id: number, enabled: boolean) => {
    setFailure(failureOf(await setEnabled({ id, enabled }), 'updateEventSubscription'));
  };

  return (
    <section aria-labelledby="events-title">
      <h1 id="events-title">Event subscriptions</h1>
      <form onSubmit={(e) => void submit(e)} className="card" aria-labelledby="new-sub-title">
        <h2 id="new-sub-title">Subscribe a URL</h2>
        <label htmlFor="sub-url">Receiver URL</label>
        <input id="sub-url" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
        <fieldset>
          <legend>Events</legend>
          {data?.eventTypes.map((type) => (
            <label key={type.name} title={type.description}>
              <input
                type="checkbox"
                checked={types.includes(type.name)}
                onChange={(e) => setTypes(e.target.checked ? [...types, type.name] : types.filter((t) => t !== type.name))}
              />{' '}
              {type.name}
            </label>
          ))}
        </fieldset>
        <ScopedButton scope="admin" type="submit">
          Subscribe
        </ScopedButton>
      </form>
      {secret && (
        <div className="card issued" role="status">
          <p>The signing secret, shown this once:</p>
          <code className="secret" data-testid="subscription-secret">
            {secret}
          </code>
        </div>
      )}
      <Alert message={failure} />
      <RequestError error={error} />
      {data?.eventSubscriptions.map((sub) => (
        <article key={sub.databaseId} className="card" aria-label={`Subscription ${sub.url}`}>
          <h2>{sub.url}</h2>
          <p>
            {sub.eventTypes.join(', ')} · {sub.enabled ? 'enabled' : `disabled${sub.disabledReason ? `: ${sub.disabledReason}` : ''}`} ·{' '}
            {sub.pending} pending{' '}
            <ScopedButton scope="admin" onClick={() => void toggle(sub.databaseId, !sub.enabled)}>
              {sub.enabled ? 'Disable' : 'Enable'}
            </ScopedButton>
          </p>
          <table>
            <caption>Delivery log</caption>
            <thead>
              <tr>
                <th scope="col">At</th>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Status</th>
                <th scope="col">Response</th>
                <th scope="col">Took</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {sub.deliveries.map((d) => (
                <tr key={d.databaseId}>
                  <td>{new Date(d.at).toLocaleString()}</td>
                  <td>{d.eventType}</td>
                  <td>{d.attempt}</td>
                  <td>{d.status}</td>
                  <td title={d.responseExcerpt ?? ''}>{d.responseCode ?? d.error}</td>
                  <td>{d.durationMs != null ? `${d.durationMs} ms` : ''}</td>
                  <td>
                    <ScopedButton scope="admin" onClick={() => void doResend(d.databaseId)}>
                      Resend {d.eventType}
                    </ScopedButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </article>
      ))}
    </section>
  );
}
