import { setTimeout as sleep } from 'node:timers/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { SecretBox } from '../crypto/secret-box';
import { mapLimit } from '../catalog/registry-image';
import { queryRows } from '../db/rows';
import type { EventBus, LockKey } from '../events/event-bus';
import type { Logger } from '../logger';
import type { AgentClient } from '../targets/agent-client';
import { TargetService } from '../targets/target.service';
import type { DomainEventLog } from './domain-events';

/** Targets asked at once in a round. */
const ASK_AT_ONCE = 32;

/** One replica asks the agents. */
export const TARGET_HEALTH_LOCK: LockKey = [0, 2];

// The last state is kept in `target_health`, so a replica taking over (or a restart) reports only changes;
// a target first seen answering is not news.
export class TargetHealthPoller {
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(
    private readonly orm: MikroORM,
    private readonly bus: EventBus,
    private readonly agents: AgentClient,
    private readonly secrets: SecretBox,
    private readonly events: DomainEventLog,
    private readonly log: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.intervalMs > 0) this.loop ??= this.run();
  }

  async close(): Promise<void> {
    this.stopping.abort();
    await this.loop;
    await this.bus.unlock(TARGET_HEALTH_LOCK);
  }

  /** The poller's tick; tests call it rather than wait for one. */
  async check(): Promise<void> {
    const em = this.orm.em.fork();
    const targets = new TargetService(em, this.secrets, this.agents, this.log);
    const known = new Map(
      (await queryRows<{ target_id: number; reachable: boolean }>(em, 'select target_id, reachable from target_health')).map((r) => [
        r.target_id,
        r.reachable,
      ]),
    );
    const all = await targets.list();
    // Every target asked at once (a few dozen at a time), not one after another: a round over
    // 500 targets took as long as 500 round trips, and the first round, at start, opens the
    // connections the first fan-out query would otherwise open itself.
    // An answer from within half a round counts as this round's: at start, the one opening the connection.
    const failures = await mapLimit(all, ASK_AT_ONCE, (target) =>
      this.agents.metadata(targets.agentTarget(target), this.intervalMs / 2).then(
        () => null,
        (failure: unknown) => (failure instanceof Error ? failure.message : String(failure)),
      ),
    );
    for (const [i, target] of all.entries()) {
      const error = failures[i];
      const reachable = error === null;
      const checkedAt = new Date();
      await queryRows(
        em,
        `insert into target_health (target_id, reachable, error, checked_at) values ($1, $2, $3, $4)
         on conflict (target_id) do update set reachable = excluded.reachable, error = excluded.error, checked_at = excluded.checked_at`,
        [target.id, reachable, error, checkedAt],
      );
      const before = known.get(target.id);
      if (before === reachable || (before === undefined && reachable)) continue;
      await this.events.emit(
        reachable ? 'target.reachable' : 'target.unreachable',
        { targetId: target.id, name: target.name, error },
        { dedupeKey: `target:${target.id}:${checkedAt.toISOString()}`, occurredAt: checkedAt },
      );
    }
  }

  private async run(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      try {
        if (await this.bus.tryLock(TARGET_HEALTH_LOCK)) await this.check();
      } catch (error) {
        this.log.debug({ err: error }, 'target health: round failed; will retry');
      }
      try {
        await sleep(this.intervalMs, undefined, { signal: this.stopping.signal });
      } catch {
        return;
      }
    }
  }
}
