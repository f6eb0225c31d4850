import { randomBytes } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { queryRows } from '../db/rows';
import { BadRequestError, NotFoundError } from '../errors';
import type { Logger } from '../logger';
import type { Adapter, ServiceStatus } from './adapters/adapter';
import { AgentDeployment } from './deployment.entity';
import { parseDescriptor } from './descriptor';

/** Interface B, Deployment shape (create, list, redeploy). */
export interface DeploymentView {
  id: number;
  name: string | null;
  template: number | null;
  service_ids: string[];
  /** The original agents' member; always true here. */
  redeployable: boolean;
}

/** Interface B, single fetch. */
export interface DeploymentStatusView {
  id: number;
  name: string | null;
  redeployable: boolean;
  status: { services: ServiceStatus[] };
}

/**
 * Orchestrator objects are made before the row that records them and removed before it goes, so
 * no row points at nothing; a redeploy puts the new generation in place before forgetting the old.
 */
export class DeploymentService {
  /** Serialises redeploy/delete per deployment: two at once would each remove the other's objects. */
  private readonly locks = new Map<number, Promise<unknown>>();

  constructor(
    private readonly orm: MikroORM,
    private readonly adapter: Adapter,
    private readonly log: Logger,
  ) {}

  /**
   * Reads are answered from memory: the main service asks every agent on every query and poll. This
   * process is the database's only writer (lockAgentDatabase); its writes bump `generation` once
   * committed, and a read begun before that is not kept.
   */
  private snapshot: { generation: number; rows: Promise<readonly Readonly<DeploymentView>[]> } | undefined;
  private generation = 0;

  async list(
    options: { withStatus?: boolean } = {},
  ): Promise<readonly Readonly<DeploymentView & Partial<Pick<DeploymentStatusView, 'status'>>>[]> {
    const views = await this.rows();
    if (!options.withStatus) return views;
    const statuses = await Promise.all(views.map((view) => this.adapter.status(view.service_ids)));
    return views.map((view, i) => ({ ...view, status: { services: statuses[i] } }));
  }

  async create(body: unknown): Promise<DeploymentView> {
    const template = parseDescriptor(body);
    const em = this.orm.em.fork();
    // The id is reserved first so the orchestrator objects can carry it in their names and labels.
    const [{ id }] = await em
      .getConnection()
      .execute<{ id: string }[]>(`select nextval(pg_get_serial_sequence('agent_deployments', 'id')) as id`);
    const deploymentId = Number(id);
    const key = generationKey(deploymentId);
    const serviceIds = await this.adapter.create(key, template);
    try {
      const row = em.create(AgentDeployment, {
        id: deploymentId,
        name: template.name ?? null,
        template,
        serviceIds,
        adapterKey: key,
      });
      await this.written(em);
      this.log.info({ deployment: deploymentId, services: serviceIds.length }, 'deployment created');
      return view(row);
    } catch (error) {
      await this.adapter
        .remove(key, serviceIds)
        .catch((cleanup: unknown) =>
          this.log.error({ err: cleanup, deployment: deploymentId }, 'could not remove the objects of an unsaved deployment'),
        );
      throw error;
    }
  }

  async get(rawId: string): Promise<DeploymentStatusView> {
    const id = parseId(rawId);
    const row = (await this.rows()).find((candidate) => candidate.id === id);
    if (!row) throw NotFoundError.of('deployment', id);
    const services = await this.adapter.status(row.service_ids);
    return { id: row.id, name: row.name, redeployable: row.redeployable, status: { services } };
  }

  async remove(rawId: string): Promise<void> {
    const id = parseId(rawId);
    await this.exclusive(id, async () => {
      const em = this.orm.em.fork();
      const row = await this.find(rawId, em);
      await this.adapter.remove(row.adapterKey, row.serviceIds);
      em.remove(row);
      await this.written(em);
      this.log.info({ deployment: id }, 'deployment deleted');
    });
  }

  /** `body`, when given, is a descriptor that replaces the stored one (checked before anything changes). */
  async redeploy(rawId: string, body?: unknown): Promise<DeploymentView> {
    const id = parseId(rawId);
    const replacement = body === undefined ? undefined : parseDescriptor(body);
    return this.exclusive(id, async () => {
      const em = this.orm.em.fork();
      const row = await this.find(rawId, em);
      const old = { key: row.adapterKey, ids: row.serviceIds };
      const key = generationKey(id);
      const template = replacement ?? row.template;
      let serviceIds: string[];
      if (this.adapter.replace) {
        serviceIds = await this.adapter.replace(old, key, template);
      } else {
        serviceIds = await this.adapter.create(key, template);
        // The new generation runs; a leftover of the old one is logged, not a failed redeploy.
        await this.adapter
          .remove(old.key, old.ids)
          .catch((error: unknown) =>
            this.log.error({ err: error, deployment: id, key: old.key, ids: old.ids }, 'could not remove the previous generation'),
          );
      }
      row.serviceIds = serviceIds;
      row.adapterKey = key;
      if (replacement) {
        row.template = replacement;
        row.name = replacement.name ?? null;
      }
      await this.written(em);
      this.log.info({ deployment: id, services: serviceIds.length }, 'deployment redeployed');
      return view(row);
    });
  }

  private rows(): Promise<readonly Readonly<DeploymentView>[]> {
    if (this.snapshot?.generation === this.generation) return this.snapshot.rows;
    const snapshot = { generation: this.generation, rows: this.readRows() };
    this.snapshot = snapshot;
    snapshot.rows.catch(() => {
      if (this.snapshot === snapshot) this.snapshot = undefined;
    });
    return snapshot.rows;
  }

  private async readRows(): Promise<DeploymentView[]> {
    const rows = await queryRows<{ id: number; name: string | null; template_id: unknown; redeployable: boolean; service_ids: string[] }>(
      this.orm.em,
      `select id, name, template -> 'id' as template_id, jsonb_array_length(coalesce(template -> 'images', '[]'::jsonb)) > 0 as redeployable, service_ids from agent_deployments order by id`,
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      template: typeof row.template_id === 'number' ? row.template_id : null,
      service_ids: row.service_ids,
      redeployable: row.redeployable,
    }));
  }

  /** Whatever the outcome, the next read reads the rows again. */
  private async written(em: EntityManager): Promise<void> {
    try {
      await em.flush();
    } finally {
      this.generation++;
    }
  }

  private async find(rawId: string, em = this.orm.em.fork()): Promise<AgentDeployment> {
    const id = parseId(rawId);
    const row = await em.findOne(AgentDeployment, { id });
    if (!row) throw NotFoundError.of('deployment', id);
    return row;
  }

  private async exclusive<T>(id: number, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(id) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(work);
    this.locks.set(id, run);
    try {
      return await run;
    } finally {
      if (this.locks.get(id) === run) this.locks.delete(id);
    }
  }
}

function view(row: AgentDeployment): DeploymentView {
  const template = row.template;
  return {
    id: row.id,
    name: row.name ?? null,
    template: template.id ?? null,
    service_ids: row.serviceIds,
    redeployable: (template.images ?? []).length > 0,
  };
}

function parseId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw new BadRequestError(`The deployment id "${raw}" is not an integer.`, ['id']);
  return Number(raw);
}

/** One generation of one deployment: `d<id>-<random>`, short and valid in any orchestrator name. */
function generationKey(id: number): string {
  return `d${id}-${randomBytes(3).toString('hex')}`;
}
