import type { IncomingHttpHeaders } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { SecretBox } from '../crypto/secret-box';
import { inTransaction } from '../db/held-transaction';
import { queryRows } from '../db/rows';
import { NotFoundError, RateLimitedError } from '../errors';
import type { RequestOrigin } from '../net/request-origin';
import { HOOK_QUEUE, type JobQueue } from '../outbound/queue';
import type { HookKind } from './hook.entity';
import { readRequest, verify, type HookRequest } from './payloads';

export interface HookJob {
  callId: number;
  hookId: number;
  request: Pick<HookRequest, 'images' | 'tag' | 'event'>;
  origin: RequestOrigin;
}

export interface HookAnswer {
  status: 200 | 202;
  body: { call: number; status: string; duplicate: boolean; message: string | null };
}

interface HookRow {
  id: number;
  kind: HookKind;
  sealed_secret: string;
}

// An unknown or revoked hook is a 404 that says nothing about others; a repeated delivery id gets the first
// call's outcome. The job is queued in the call row's transaction, so a restart does not lose it.
export class HookReceiver {
  private readonly windows = new Map<number, { start: number; count: number }>();

  constructor(
    private readonly orm: MikroORM,
    private readonly secrets: SecretBox,
    private readonly queue: JobQueue,
    private readonly limits: { perWindow: number; windowSeconds: number },
    private readonly onQueued: () => void,
  ) {}

  async receive(publicId: string, headers: IncomingHttpHeaders, body: Buffer, origin: RequestOrigin): Promise<HookAnswer> {
    const em = this.orm.em.fork();
    const [hook] = /^hk_[\w-]{16,64}$/.test(publicId)
      ? await queryRows<HookRow>(em, 'select id, kind, sealed_secret from deploy_hooks where public_id = $1', [publicId])
      : [];
    if (!hook) throw new NotFoundError('no such hook');
    this.countCall(hook.id);
    verify(hook.kind, this.secrets.open(hook.sealed_secret), headers, body);
    const request = readRequest(hook.kind, headers, body);
    const status = request.actionable ? 'queued' : 'ignored';
    const message = request.actionable ? null : (request.reason ?? null);
    const answer = await inTransaction(em, async (connection): Promise<HookAnswer> => {
      const [call] = await connection.query<{ id: number }>(
        `insert into deploy_hook_calls (hook_id, delivery_id, event, status, message, finished_at) values ($1, $2, $3, $4, $5, $6)
         on conflict (hook_id, delivery_id) do nothing returning id`,
        [hook.id, request.deliveryId, request.event, status, message, request.actionable ? null : new Date()],
      );
      if (!call) {
        const [first] = await connection.query<{ id: number; status: string; message: string | null }>(
          'select id, status, message from deploy_hook_calls where hook_id = $1 and delivery_id = $2',
          [hook.id, request.deliveryId],
        );
        return { status: 200, body: { call: first.id, status: first.status, duplicate: true, message: first.message } };
      }
      await connection.query('update deploy_hooks set last_used_at = now() where id = $1', [hook.id]);
      if (!request.actionable) return { status: 200, body: { call: call.id, status, duplicate: false, message } };
      const job: HookJob = {
        callId: call.id,
        hookId: hook.id,
        request: { images: request.images, tag: request.tag, event: request.event },
        origin,
      };
      // Run once: a failed redeploy is recorded, not repeated; only a replica that died mid-way has it run again.
      await this.queue.insert(connection, [{ name: HOOK_QUEUE, data: job, retryLimit: 1, retryDelay: 1, expireInSeconds: 900 }]);
      return { status: 202, body: { call: call.id, status, duplicate: false, message } };
    });
    if (answer.status === 202) this.onQueued();
    return answer;
  }

  /** Each replica counts its own window; checked before the signature, so a flood costs one indexed read a call. */
  private countCall(hookId: number): void {
    const now = Date.now();
    const windowMs = this.limits.windowSeconds * 1000;
    let window = this.windows.get(hookId);
    if (!window || now - window.start >= windowMs) {
      if (this.windows.size > 10_000) this.windows.clear();
      this.windows.set(hookId, (window = { start: now, count: 0 }));
    }
    window.count++;
    if (window.count > this.limits.perWindow) {
      const error = new RateLimitedError(`this hook takes at most ${this.limits.perWindow} calls per ${this.limits.windowSeconds} s`);
      error.retryAfterSeconds = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
      throw error;
    }
  }
}
