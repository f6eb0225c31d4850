import { cacheExchange } from '@urql/exchange-graphcache';
import { createClient as createSseClient } from 'graphql-sse';
import { Client, fetchExchange, subscriptionExchange, mapExchange } from 'urql';
import { possibleTypes } from '../../../schema/possible-types.json';

/**
 * The console's GraphQL client: urql with graphcache's normalized cache (every object with an
 * identity has a global `id`; values without one, like a port or a link, are embedded in their
 * owner), subscriptions over graphql-sse on /graphql/stream, and the session's cookie and CSRF
 * token on every request.
 */
/** A cache key from an object's databaseId (types without a global id). */
const byDatabaseId = (data: Record<string, unknown>): string | null =>
  typeof data.databaseId === 'number' ? String(data.databaseId) : null;

/**
 * Fires each time a subscription's stream is open on the server. A page that read a state before its
 * subscription was registered reads it again then: a change between the two reached neither.
 */
export const subscriptionsOpened = new EventTarget();

export function createConsoleClient(csrfToken: string, onUnauthenticated: () => void): Client {
  const headers = { 'x-csrf-token': csrfToken };
  const sse = createSseClient({ url: '/graphql/stream', credentials: 'same-origin', headers });
  return new Client({
    url: '/graphql',
    fetchOptions: { credentials: 'same-origin', headers },
    exchanges: [
      mapExchange({
        onResult(result) {
          const status = (result.error?.response as Response | undefined)?.status;
          if (status === 401) onUnauthenticated();
          return result;
        },
      }),
      cacheExchange({
        // The schema's unions and interfaces (printed with it): without them graphcache cannot
        // tell that `... on Error { message }` matches a ValidationError, and drops the message.
        possibleTypes,
        keys: {
          // Values of their owner, with no identity of their own: cached inside it.
          CategoryPosition: () => null,
          DeploymentServiceId: () => null,
          DeploymentStatus: () => null,
          DeploymentServiceState: () => null,
          DeploymentStatusEvent: () => null,
          DeletedDeployment: () => null,
          DeploymentTargetMetadata: () => null,
          EnvironmentVariable: () => null,
          Image: () => null,
          ImageLink: () => null,
          JournalEntry: () => null,
          Port: () => null,
          RegistryImageTemplate: () => null,
          SearchResult: () => null,
          TemplateLoadError: () => null,
          RegistrySearchError: () => null,
          ServiceError: () => null,
          ServiceLink: () => null,
          ServiceReplica: () => null,
          ServiceStateEvent: () => null,
          User: () => null,
          Volume: () => null,
          VolumeFrom: () => null,
          // Automation: kept by their database ids; the answers that carry a secret are not kept at all.
          DeployHook: byDatabaseId,
          DeployHookCall: byDatabaseId,
          EventSubscription: byDatabaseId,
          EventDelivery: byDatabaseId,
          AuditEvent: byDatabaseId,
          AuditEventPage: () => null,
          EventTypeInfo: () => null,
          IssuedDeployHook: () => null,
          IssuedEventSubscription: () => null,
          // History: read afresh each time it is shown, kept inside its app.
          Revision: () => null,
          RevisionAuthor: () => null,
          RevisionImage: () => null,
          RevisionConnection: () => null,
          RevisionEdge: () => null,
          RevisionDiff: () => null,
          RevisionImageChange: () => null,
          RevisionFieldChange: () => null,
          RevisionEvent: () => null,
        },
        // A list a mutation adds to or removes from is read again when next shown.
        updates: {
          Mutation: {
            createApp: (_result, _args, cache) => cache.invalidate('Query', 'apps'),
            deleteApp: (_result, _args, cache) => cache.invalidate('Query', 'apps'),
            createApiToken: (_result, _args, cache) => cache.invalidate('Query', 'apiTokens'),
            createDeploymentTarget: (_result, _args, cache) => cache.invalidate('Query', 'deploymentTargets'),
            // Deployed from an app's page: the target's page reads its deployments again.
            createDeployment: (_result, args, cache) =>
              cache.invalidate('Query', 'deploymentTarget', { id: (args.input as { targetId: number }).targetId }),
            createTemplateRepo: (_result, _args, cache) => cache.invalidate('Query', 'templateRepos'),
            createRegistry: (_result, _args, cache) => cache.invalidate('Query', 'registries'),
            createDeployHook: (_result, _args, cache) => cache.invalidate('Query', 'deployHooks'),
            revokeDeployHook: (_result, _args, cache) => cache.invalidate('Query', 'deployHooks'),
            createEventSubscription: (_result, _args, cache) => cache.invalidate('Query', 'eventSubscriptions'),
            deleteEventSubscription: (_result, _args, cache) => cache.invalidate('Query', 'eventSubscriptions'),
          },
        },
      }),
      subscriptionExchange({
        forwardSubscription(operation) {
          return {
            subscribe(sink) {
              const dispose = sse.subscribe({ ...operation, query: operation.query ?? '' }, sink, {
                connected: () => subscriptionsOpened.dispatchEvent(new Event('opened')),
              });
              return { unsubscribe: dispose };
            },
          };
        },
      }),
      fetchExchange,
    ],
  });
}
