import type { MikroORM } from '@mikro-orm/postgresql';
import type PgBoss from 'pg-boss';
import { queryRows } from '../db/rows';
import { DomainError } from '../errors';
import type { Logger } from '../logger';
import type { Actor } from '../audit/audit-log';
import type { MutationStream } from '../audit/mutation-stream';
import { HOOK_QUEUE, type JobQueue } from '../outbound/queue';
import type { HookJob } from './hook-receiver';
import { stripTag, tagOf } from './payloads';

/** Built per job over a fresh entity manager. */
export interface HookTargets {
  appImages(appId: number): Promise<{ id: number; from: string }[]>;
  redeployApp(appId: number, changes: Map<number, string>): Promise<unknown>;
  redeployDeployment(targetId: number, id: number): Promise<unknown>;
  /** The ids of its templates whose definition changed. */
  reloadRepo(id: number): Promise<number[]>;
  /** Only apps that opted in. */
  appsToFollow(templateIds: number[]): Promise<{ appId: number; changes: Map<number, string> }[]>;
}

interface HookRow {
  id: number;
  name: string;
  app_id: number | null;
  target_id: number | null;
  deployment_id: number | null;
  template_repo_id: number | null;
  allow_tag: boolean;
}

interface Outcome {
  status: 'done' | 'failed' | 'ignored';
  message: string | null;
}

/** Each change goes to the mutation stream as the hook's, so the audit log and domain events see it. */
export class HookRunner {
  private workerId: string | undefined;

  constructor(
    private readonly orm: MikroORM,
    private readonly queue: JobQueue,
    private readonly targets: () => HookTargets,
    private readonly changes: MutationStream,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.workerId = await this.queue.boss.work<HookJob>(HOOK_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) =>
      this.run(job),
    );
  }

  wake(): void {
    if (this.workerId) this.queue.boss.notifyWorker(this.workerId);
  }

  async stop(): Promise<void> {
    if (this.workerId) await this.queue.boss.offWork({ id: this.workerId });
  }

  private async run(job: PgBoss.Job<HookJob>): Promise<void> {
    const { callId, hookId } = job.data;
    const em = this.orm.em.fork();
    const [hook] = await queryRows<HookRow>(
      em,
      'select id, name, app_id, target_id, deployment_id, template_repo_id, allow_tag from deploy_hooks where id = $1',
      [hookId],
    );
    let outcome: Outcome;
    if (!hook) outcome = { status: 'ignored', message: 'the hook was revoked before its call ran' };
    else {
      try {
        outcome = await this.perform(hook, job.data);
      } catch (error) {
        outcome = { status: 'failed', message: error instanceof DomainError ? error.message : 'Unexpected error.' };
        if (!(error instanceof DomainError)) this.log.error({ err: error, hookId }, 'hook: the work failed unexpectedly');
      }
    }
    await queryRows(em, 'update deploy_hook_calls set status = $2, message = $3, finished_at = now() where id = $1', [
      callId,
      outcome.status,
      outcome.message,
    ]);
  }

  private async perform(hook: HookRow, job: HookJob): Promise<Outcome> {
    const actor: Actor = { kind: 'webhook', id: String(hook.id), name: hook.name };
    const targets = this.targets();
    const record = (operation: string, input: Record<string, unknown>, run: () => Promise<unknown>) =>
      this.recorded(actor, job, operation, input, run);
    if (hook.app_id !== null) {
      const changes = await this.imageChanges(hook, job, targets);
      if (changes === null) return { status: 'ignored', message: noMatch(job) };
      const input = { id: hook.app_id, images: Object.fromEntries([...changes].map(([id, ref]) => [String(id), ref])) };
      await record('redeployApp', input, () => targets.redeployApp(hook.app_id!, changes));
      return { status: 'done', message: changes.size ? `redeployed with ${[...changes.values()].join(', ')}` : 'redeployed' };
    }
    if (hook.target_id !== null && hook.deployment_id !== null) {
      await record('redeployDeployment', { targetId: hook.target_id, id: hook.deployment_id }, () =>
        targets.redeployDeployment(hook.target_id!, hook.deployment_id!),
      );
      return { status: 'done', message: 'redeployed' };
    }
    const changed = (await record('reloadTemplateRepo', { id: hook.template_repo_id }, () =>
      targets.reloadRepo(hook.template_repo_id!),
    )) as number[];
    const followers = await targets.appsToFollow(changed);
    const failures: string[] = [];
    for (const { appId, changes } of followers) {
      const input = { id: appId, templateChanged: true, images: Object.fromEntries([...changes].map(([id, ref]) => [String(id), ref])) };
      await record('redeployApp', input, () => targets.redeployApp(appId, changes)).catch((error: unknown) =>
        failures.push(`app ${appId}: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
    const summary = `reloaded; ${changed.length} template(s) changed; ${followers.length} app(s) redeployed`;
    return failures.length
      ? { status: 'failed', message: `${summary}; failed: ${failures.join('; ')}` }
      : { status: 'done', message: summary };
  }

  private async recorded(actor: Actor, job: HookJob, operation: string, input: Record<string, unknown>, run: () => Promise<unknown>) {
    let result: unknown;
    try {
      result = await run();
    } catch (error) {
      await this.changes.settled({ actor, origin: job.origin, operation, input, error });
      throw error;
    }
    await this.changes.settled({ actor, origin: job.origin, operation, input, result });
    return result;
  }

  // Without `allow_tag` only services already on the pushed tag are concerned (the redeploy pulls it again).
  // Null: no service is concerned; a call naming no image redeploys the app as it is.
  private async imageChanges(hook: HookRow, job: HookJob, targets: HookTargets): Promise<Map<number, string> | null> {
    const { images, tag } = job.request;
    const services = await targets.appImages(hook.app_id!);
    const changes = new Map<number, string>();
    if (images.length === 0) {
      if (!tag) return changes;
      const repositories = new Set(services.map((s) => stripTag(s.from)));
      if (!hook.allow_tag || repositories.size !== 1) return null;
      for (const s of services) changes.set(s.id, `${stripTag(s.from)}:${tag}`);
      return changes;
    }
    let concerned = false;
    for (const image of images) {
      for (const service of services) {
        if (!image.repositories.includes(stripTag(service.from))) continue;
        if (image.tag === null || tagOf(service.from) === image.tag) concerned = true;
        else if (hook.allow_tag) {
          concerned = true;
          changes.set(service.id, `${stripTag(service.from)}:${image.tag}`);
        }
      }
    }
    return concerned ? changes : null;
  }
}

function noMatch(job: HookJob): string {
  const named = job.request.images.flatMap((i) => i.repositories.map((r) => `${r}:${i.tag ?? '*'}`));
  return named.length
    ? `no service of the app runs ${named.join(' or ')} (and the hook does not allow switching tags)`
    : 'the hook does not allow naming a tag, or the app runs more than one repository (name the image)';
}
