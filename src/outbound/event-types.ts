/** The domain events an admin can subscribe a URL to (docs/events.schema.json documents their payloads). */
export const EVENT_TYPES = {
  'app.state_changed': 'An app was created, redeployed, rebuilt, rolled back or deleted',
  'service.state_changed': "A service's container changed state (systemd's words, from the engine)",
  'deployment.created': 'A deployment was created on a target',
  'deployment.redeployed': 'A deployment was redeployed',
  'deployment.rolled_back': 'A deployment was rolled back to an earlier revision',
  'deployment.failed': 'Creating or redeploying a deployment failed',
  'template_repo.reload_failed': 'Reloading a template repo failed',
  'target.unreachable': "A target's agent stopped answering",
  'target.reachable': "A target's agent answers again",
} as const;

export type EventType = keyof typeof EVENT_TYPES;

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(EVENT_TYPES, value);
}
