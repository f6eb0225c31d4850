import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '../crypto/secret-box';
import { findPage, type KeysetPage } from '../db/keyset';
import { queryRows } from '../db/rows';
import { AgentRejectedTokenError, DomainError, NotFoundError, ValidationError } from '../errors';
import type { Logger } from '../logger';
import type { AgentClient, AgentMetadata, AgentTarget } from './agent-client';
import { decodeAuthBlob } from './auth-blob';
import { DeploymentTarget, type DeploymentTargetView } from './deployment-target.entity';

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

  /** A query looks each target up again for every agent request it makes. */
  private readonly found = new Map<number, Promise<DeploymentTargetView>>();
  private listing: Promise<DeploymentTargetView[]> | undefined;

  /**
   * Read once per request: the cost check sizes `deploymentTargets` by it and the field answers with it.
   * Rows, not entities: hydrating them was most of a fan-out query's time before its first agent request.
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

  /** For reads: a view this request already has, else the entity. */
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

  /** Nothing is stored when the agent refused the token; an unreachable agent's target is kept with `metadataError`. */
  async create(input: { name?: string | null; authBlob?: string | null }): Promise<DeploymentTarget> {
    const name = input.name?.trim();
    if (!name) throw new ValidationError("name can't be blank", ['name']);
    const authBlob = compactBlob(input.authBlob);
    const blob = decodeAuthBlob(authBlob);
    const answer = await this.checkToken(name, authBlob, `new:${blob.endpointUrl}`);
    const target = this.em.create(DeploymentTarget, {
      name,
      endpointUrl: blob.endpointUrl,
      sealedAuthBlob: this.secrets.seal(authBlob),
      agentVersion: null,
      adapterVersion: null,
      adapterType: null,
      metadataAt: null,
      metadataError: null,
    });
    this.record(target, answer);
    await this.em.flush();
    return target;
  }

  /**
   * A new token is checked as a new target's is (a refused one is a 422 and the old one stays).
   * Nothing changes on any failure; the deployments live on the agent and stay.
   */
  async update(input: { id: number; name?: string | null; authBlob?: string | null }): Promise<DeploymentTarget> {
    const given = (value: string | null | undefined): value is string => value !== null && value !== undefined;
    if (!given(input.name) && !given(input.authBlob)) throw new ValidationError('give a name or an auth_blob', ['name', 'auth_blob']);
    const target = await this.get(input.id);
    const name = given(input.name) ? input.name.trim() : target.name;
    if (!name) throw new ValidationError("name can't be blank", ['name']);
    if (given(input.authBlob)) {
      const authBlob = compactBlob(input.authBlob);
      const blob = decodeAuthBlob(authBlob);
      const answer = await this.checkToken(name, authBlob, `check:${target.id}`);
      target.endpointUrl = blob.endpointUrl;
      target.sealedAuthBlob = this.secrets.seal(authBlob);
      // An agent that could not be asked is as a new target's: its versions are not known.
      if (answer instanceof DomainError)
        Object.assign(target, { agentVersion: null, adapterVersion: null, adapterType: null, metadataAt: null });
      this.record(target, answer);
    }
    target.name = name;
    await this.em.flush();
    // Its pool holds the old token's credentials and certificate.
    if (given(input.authBlob)) await this.agents.forget(target.id);
    return target;
  }

  /** Asks the agent again; its failure is recorded on the target and is the answer (502/504). */
  async refreshMetadata(id: number): Promise<DeploymentTarget> {
    const target = await this.get(id);
    const answer = await this.askMetadata(target.name, this.agentTarget(target));
    this.record(target, answer);
    await this.em.flush();
    if (answer instanceof DomainError) throw answer;
    return target;
  }

  async delete(id: number): Promise<DeploymentTarget> {
    const target = await this.get(id);
    await this.em.remove(target).flush();
    await this.agents.forget(id);
    return target;
  }

  /** Every target, as the agent client calls it. */
  async agentTargets(): Promise<AgentTarget[]> {
    return (await this.list()).map((target) => this.agentTarget(target));
  }

  /** Holds the decrypted token: never leaves the process. */
  agentTarget(target: DeploymentTargetView): AgentTarget {
    return { id: target.id, name: target.name, authBlob: this.authBlob(target) };
  }

  authBlob(target: DeploymentTargetView): string {
    return this.secrets.open(target.sealedAuthBlob);
  }

  /** An agent that rejects the credentials or shows another certificate has answered for good: 422; other failures return. */
  private async checkToken(name: string, authBlob: string, key: string): Promise<AgentMetadata | DomainError> {
    const answer = await this.askMetadata(name, { id: key, name, authBlob }).finally(() => this.agents.forget(key));
    if (answer instanceof AgentRejectedTokenError) throw new ValidationError(answer.message, ['auth_blob']);
    return answer;
  }

  private async askMetadata(name: string, agent: AgentTarget): Promise<AgentMetadata | DomainError> {
    try {
      return await this.agents.metadata(agent);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.log.warn({ target: name }, `agent metadata failed: ${error.message}`);
      return error;
    }
  }

  private record(target: DeploymentTarget, answer: AgentMetadata | DomainError): void {
    if (answer instanceof DomainError) {
      target.metadataError = answer.message;
      return;
    }
    target.agentVersion = answer.agent.version;
    target.adapterVersion = answer.adapter.version;
    target.adapterType = answer.adapter.type;
    target.metadataAt = new Date();
    target.metadataError = null;
  }
}

/** Installers wrap the token's base64: stored without the breaks. */
function compactBlob(authBlob: string | null | undefined): string {
  return (authBlob ?? '').replace(/\s+/g, '');
}

/** The token as shown to clients: the password part masked (the rest identifies the agent). */
export function maskedAuthBlob(authBlob: string): string {
  const decoded = decodeAuthBlob(authBlob);
  const text = [decoded.endpointUrl, decoded.username, '********', decoded.certificatePem].join('|');
  return Buffer.from(text, 'utf8').toString('base64');
}
