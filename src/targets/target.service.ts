import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '../crypto/secret-box';
import { findPage, type KeysetPage } from '../db/keyset';
import { queryRows } from '../db/rows';
import { AgentRejectedTokenError, DomainError, NotFoundError, ValidationError } from '../errors';
import type { Logger } from '../logger';
import type { AgentClient, AgentMetadata, AgentTarget } from './agent-client';
import { decodeAuthBlob } from './auth-blob';
import { DeploymentTarget, type DeploymentTargetView } from './deployment-target.entity';

/** deployment_targets as node-postgres reads it. */
interface TargetColumns {
  id: number;
  name: string;
  endpoint_url: string;
  sealed_auth_blob: string;
  agent_version: string | null;
  adapter_version: string | null;
  adapter_type: string | null;
  metadata_at: Date | null;
  metadata_error: string | null;
  created_at: Date;
}

export class TargetService {
  constructor(
    private readonly em: EntityManager,
    private readonly secrets: SecretBox,
    private readonly agents: AgentClient,
    private readonly log: Logger,
  ) {}

  /**
   * This request's targets by id, as listed or looked up: a query looks each target up again for
   * every agent request it makes (its list, each deployment's status, `Deployment.target`).
   */
  private readonly found = new Map<number, Promise<DeploymentTargetView>>();
  private listing: Promise<DeploymentTargetView[]> | undefined;

  /**
   * Every target, as rows, read once per request: the cost check sizes `deploymentTargets` by
   * this list and the field then answers with it, one statement instead of a count and a read.
   * Rows, not entities: hydrating fifty entities (and finding each again for its agent requests)
   * was the largest part of the service's time before a fan-out query's first agent request left
   * (bench scenario 2).
   */
  list(): Promise<DeploymentTargetView[]> {
    this.listing ??= this.readList();
    return this.listing;
  }

  private async readList(): Promise<DeploymentTargetView[]> {
    const rows = await queryRows<TargetColumns>(
      this.em,
      'select id, name, endpoint_url, sealed_auth_blob, agent_version, adapter_version, adapter_type, metadata_at, metadata_error, created_at from deployment_targets order by id',
    );
    return rows.map((row) => {
      const view: DeploymentTargetView = {
        id: row.id,
        name: row.name,
        endpointUrl: row.endpoint_url,
        sealedAuthBlob: row.sealed_auth_blob,
        agentVersion: row.agent_version,
        adapterVersion: row.adapter_version,
        adapterType: row.adapter_type,
        metadataAt: row.metadata_at,
        metadataError: row.metadata_error,
        createdAt: row.created_at,
      };
      this.found.set(view.id, Promise.resolve(view));
      return view;
    });
  }

  /** For reads: a target this request has listed or looked up, else its entity (404 when there is none). */
  find(id: number): Promise<DeploymentTargetView> {
    let target = this.found.get(id);
    if (!target) this.found.set(id, (target = this.get(id)));
    return target;
  }

  page(window: KeysetPage): Promise<DeploymentTarget[]> {
    return findPage(this.em, DeploymentTarget, window);
  }

  count(): Promise<number> {
    return this.em.count(DeploymentTarget);
  }

  async get(id: number): Promise<DeploymentTarget> {
    const target = await this.em.findOne(DeploymentTarget, { id });
    if (!target) throw NotFoundError.of('deployment target', id);
    return target;
  }

  /**
   * Decodes the token (422 naming auth_blob when it is not one), then asks the agent for its
   * metadata. An agent that rejects the token's credentials or presents another certificate has
   * answered for good: 422 naming auth_blob with its reason, nothing stored. An agent that
   * cannot be reached still gets its target, with the failure kept in `metadataError`; the row
   * is written once, after the agent answered or failed.
   */
  async create(input: { name?: string | null; authBlob?: string | null }): Promise<DeploymentTarget> {
    const name = input.name?.trim();
    if (!name) throw new ValidationError("name can't be blank", ['name']);
    const blob = decodeAuthBlob(input.authBlob ?? '');
    const target = this.em.create(DeploymentTarget, {
      name,
      endpointUrl: blob.endpointUrl,
      sealedAuthBlob: this.secrets.seal((input.authBlob ?? '').replace(/\s+/g, '')),
      agentVersion: null,
      adapterVersion: null,
      adapterType: null,
      metadataAt: null,
      metadataError: null,
    });
    // Not yet flushed: the agent is asked with a provisional key.
    const failure = await this.applyMetadata(target, { id: `new:${blob.endpointUrl}`, name, authBlob: this.authBlob(target) }).finally(() =>
      this.agents.forget(`new:${blob.endpointUrl}`),
    );
    if (failure instanceof AgentRejectedTokenError) {
      this.em.remove(target);
      throw new ValidationError(failure.message, ['auth_blob']);
    }
    await this.em.flush();
    return target;
  }

  /** Asks the agent again; its failure is recorded on the target and is the answer (502/504). */
  async refreshMetadata(id: number): Promise<DeploymentTarget> {
    const target = await this.get(id);
    const failure = await this.applyMetadata(target, this.agentTarget(target));
    await this.em.flush();
    if (failure) throw failure;
    return target;
  }

  async delete(id: number): Promise<DeploymentTarget> {
    const target = await this.get(id);
    await this.em.remove(target).flush();
    await this.agents.forget(id);
    return target;
  }

  /** What the agent client needs: the decrypted token. Never leaves the process. */
  agentTarget(target: DeploymentTargetView): AgentTarget {
    return { id: target.id, name: target.name, authBlob: this.authBlob(target) };
  }

  authBlob(target: DeploymentTargetView): string {
    return this.secrets.open(target.sealedAuthBlob);
  }

  /** Records the agent's versions, or why it could not be asked (returned, for the caller to judge). */
  private async applyMetadata(target: DeploymentTarget, agent: AgentTarget): Promise<DomainError | null> {
    let metadata: AgentMetadata;
    try {
      metadata = await this.agents.metadata(agent);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.log.warn({ target: target.name }, `agent metadata failed: ${error.message}`);
      target.metadataError = error.message;
      return error;
    }
    target.agentVersion = metadata.agent.version;
    target.adapterVersion = metadata.adapter.version;
    target.adapterType = metadata.adapter.type;
    target.metadataAt = new Date();
    target.metadataError = null;
    return null;
  }
}

/** The token as shown to clients: the password part masked (the rest identifies the agent). */
export function maskedAuthBlob(authBlob: string): string {
  const decoded = decodeAuthBlob(authBlob);
  const text = [decoded.endpointUrl, decoded.username, '********', decoded.certificatePem].join('|');
  return Buffer.from(text, 'utf8').toString('base64');
}
