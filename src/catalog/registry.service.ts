import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '../crypto/secret-box';
import { findPage, type KeysetPage } from '../db/keyset';
import { NotFoundError, ValidationError } from '../errors';
import { isNeverHost } from './outbound-policy';
import { Registry } from './registry.entity';
import type { RegistryOutages } from './registry-outages';

export interface RegistryCredentials {
  username?: string | null;
  password?: string | null;
  token?: string | null;
}

export interface RegistryInput extends RegistryCredentials {
  name?: string | null;
  endpointUrl?: string | null;
  enabled?: boolean | null;
}

export class RegistryService {
  constructor(
    private readonly em: EntityManager,
    private readonly secrets: SecretBox,
    private readonly outages?: RegistryOutages,
  ) {}

  list(): Promise<Registry[]> {
    return this.em.find(Registry, {}, { orderBy: { id: 'asc' } });
  }

  page(window: KeysetPage): Promise<Registry[]> {
    return findPage(this.em, Registry, window);
  }

  count(): Promise<number> {
    return this.em.count(Registry);
  }

  listEnabled(): Promise<Registry[]> {
    return this.em.find(Registry, { enabled: true }, { orderBy: { id: 'asc' } });
  }

  async get(id: number): Promise<Registry> {
    const registry = await this.em.findOne(Registry, { id });
    if (!registry) throw NotFoundError.of('registry', id);
    return registry;
  }

  async create(input: RegistryInput): Promise<Registry> {
    const name = requireName(input.name);
    const endpointUrl = requireEndpoint(input.endpointUrl);
    const registry = this.em.create(Registry, {
      name,
      endpointUrl,
      enabled: input.enabled ?? true,
      username: null,
      sealedSecret: null,
    });
    this.applyCredentials(registry, input);
    await this.em.flush();
    return registry;
  }

  async update(id: number, input: RegistryInput): Promise<Registry> {
    const registry = await this.get(id);
    if (input.name !== undefined) registry.name = requireName(input.name);
    if (input.endpointUrl !== undefined) registry.endpointUrl = requireEndpoint(input.endpointUrl);
    if (input.enabled !== undefined && input.enabled !== null) registry.enabled = input.enabled;
    this.applyCredentials(registry, input);
    await this.em.flush();
    this.outages?.forget(id);
    return registry;
  }

  async delete(id: number): Promise<Registry> {
    const registry = await this.get(id);
    await this.em.remove(registry).flush();
    this.outages?.forget(id);
    return registry;
  }

  /** The stored credentials, decrypted; only for talking to the registry, never for output. */
  credentials(registry: Registry): RegistryCredentials {
    const secret = registry.sealedSecret ? (JSON.parse(this.secrets.open(registry.sealedSecret)) as RegistryCredentials) : {};
    return { username: registry.username, password: secret.password ?? null, token: secret.token ?? null };
  }

  /** Credentials given replace the stored ones; a blank username clears them all. */
  private applyCredentials(registry: Registry, input: RegistryCredentials): void {
    if (input.username === undefined && input.password === undefined && input.token === undefined) return;
    if (input.password && !input.username) {
      throw new ValidationError('a password needs a username', ['username']);
    }
    const secret = { password: input.password || undefined, token: input.token || undefined };
    registry.username = input.username || null;
    registry.sealedSecret = secret.password || secret.token ? this.secrets.seal(JSON.stringify(secret)) : null;
  }
}

function requireName(name: string | null | undefined): string {
  if (!name?.trim()) throw new ValidationError("name can't be blank", ['name']);
  return name.trim();
}

function requireEndpoint(value: string | null | undefined): string {
  const text = value?.trim();
  if (!text) throw new ValidationError("endpoint_url can't be blank", ['endpoint_url']);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not echoed: a URL that does not parse may still carry user:password@.
    throw new ValidationError('endpoint_url is not a URL', ['endpoint_url']);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ValidationError('endpoint_url must be an http or https URL', ['endpoint_url']);
  }
  if (isNeverHost(url.hostname)) {
    throw new ValidationError('endpoint_url is a link-local or cloud metadata address, which this service never connects to', [
      'endpoint_url',
    ]);
  }
  if (url.username || url.password) {
    throw new ValidationError('endpoint_url must not carry credentials: give username and password', ['endpoint_url']);
  }
  return text.replace(/\/+$/, '');
}
