import type { Identity } from '../auth/token.service';
import { DomainError } from '../errors';
import type { Logger } from '../logger';
import { SYSTEM_ORIGIN, type RequestOrigin } from '../net/request-origin';
import type { DomainEventLog } from '../outbound/domain-events';
import { eventsOfMutation } from '../outbound/mutation-events';
import type { Actor, AuditLog } from './audit-log';

export interface SettledChange {
  /** Who, as the request identified them; or an actor given outright (a deploy hook). */
  identity?: Identity;
  actor?: Actor;
  origin?: RequestOrigin;
  operation: string;
  input: unknown;
  /** A typed error result counts as its error. */
  result?: unknown;
  error?: unknown;
}

/** One place for every finished change (audit log, domain events), so every door is recorded alike. */
export class MutationStream {
  private readonly listeners = new Set<(change: SettledChange, outcome: string) => Promise<void>>();

  constructor(
    private readonly audit: AuditLog,
    private readonly events: DomainEventLog,
    private readonly log: Logger,
  ) {}

  /** For what other domains keep of a change (an app's template). */
  onSettled(listener: (change: SettledChange, outcome: string) => Promise<void>): void {
    this.listeners.add(listener);
  }

  async settled(change: SettledChange): Promise<void> {
    const failure = change.error ?? (isTypedError(change.result) ? change.result : undefined);
    const outcome = failure === undefined ? 'ok' : failure instanceof DomainError || isTypedError(failure) ? failure.code : 'INTERNAL';
    const input = (isObject(change.input) ? change.input : {}) as Record<string, unknown>;
    const object = objectOf(change.operation, input, failure === undefined ? change.result : undefined);
    try {
      const actor = change.actor ?? (change.identity ? await this.audit.actorOf(change.identity) : SYSTEM_ACTOR);
      await this.audit.record({
        actor,
        origin: change.origin ?? change.identity?.origin ?? SYSTEM_ORIGIN,
        operation: change.operation,
        objectType: object.type,
        objectId: object.id,
        input,
        outcome,
      });
    } catch (error) {
      this.log.error({ err: error, operation: change.operation }, 'audit: could not record a change');
    }
    const message = failure instanceof Error || isTypedError(failure) ? failure.message : null;
    for (const event of eventsOfMutation({ operation: change.operation, input, result: change.result, outcome, message })) {
      await this.events.emit(event.type, event.data);
    }
    for (const listener of this.listeners) {
      await listener(change, outcome).catch((error: unknown) =>
        this.log.warn({ err: error, operation: change.operation }, 'a change listener failed'),
      );
    }
  }
}

const SYSTEM_ACTOR: Actor = { kind: 'system', id: null, name: 'platform' };

const EXPLICIT: Record<string, string> = { signIn: 'ConsoleSession', signOut: 'ConsoleSession', setAppAutomation: 'App' };

const VERB = /^(create|update|delete|rebuild|reload|redeploy|refresh|save|revoke|rotate|resend|set|issue)/;

/** Named after the operation (`createDeploymentTarget` → DeploymentTarget); the id from the answer or the input. */
export function objectOf(operation: string, input: Record<string, unknown>, result: unknown): { type: string | null; id: string | null } {
  const type = EXPLICIT[operation] ?? (operation.replace(VERB, '').replace(/(Metadata|Secret)$/, '') || null);
  const answered = isObject(result) ? (result as Record<string, unknown>) : {};
  const nested = isObject(answered.subscription)
    ? (answered.subscription as { id?: unknown })
    : isObject(answered.hook)
      ? (answered.hook as { id?: unknown })
      : {};
  const id = scalar(answered.id) ?? scalar(nested.id) ?? scalar(input.id) ?? scalar(input.appId) ?? scalar(input.templateRepoId);
  const targetId = scalar(input.targetId);
  if (type === 'Deployment' && targetId !== null) return { type, id: id === null ? targetId : `${targetId}/${id}` };
  return { type, id };
}

// The errors plugin hands a typed error result back as a proxy whose prototype chain is proxied too:
// `instanceof` does not see it, so it is recognised by its members.
function isTypedError(value: unknown): value is { code: string; message: string; httpStatus: number } {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { code?: unknown; httpStatus?: unknown };
  return typeof candidate.code === 'string' && typeof candidate.httpStatus === 'number';
}

function scalar(value: unknown): string | null {
  return typeof value === 'number' || typeof value === 'string' ? String(value) : null;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
