import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { NotFoundError } from '../errors';
import type { RegistryCredentials } from './registry-auth';
import { toDomainError, upstream, type HttpContext } from './registry-http';
import { RegistrySession } from './registry-session';
import { searchV1 } from './registry-v1';
import { listTags, probeV2, searchCatalog } from './registry-v2';
import type { RegistryImage } from './registry-image';
import type { OutboundPolicy } from './outbound-policy';

export interface RegistryTarget {
  id: number;
  name: string;
  endpointUrl: string;
  credentials?: RegistryCredentials;
}

export interface SearchRegistryOptions {
  /** For the whole search, auth and every page included. */
  timeoutMs: number;
  limit?: number;
  dispatcher?: Dispatcher;
  policy?: OutboundPolicy;
}

function httpContext(registry: RegistryTarget, options: SearchRegistryOptions, signal: AbortSignal): HttpContext {
  return { registryName: registry.name, timeoutMs: options.timeoutMs, signal, dispatcher: options.dispatcher, policy: options.policy };
}

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;
const DOCKER_HUB_HOSTS = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io', 'registry.hub.docker.com', 'hub.docker.com']);
const DOCKER_HUB_INDEX = 'https://index.docker.io';
const DOCKER_HUB_V2 = 'https://registry-1.docker.io';

// Docker Hub has no catalog and a public v1 search, asked anonymously (stored Hub credentials are for pulls).
// Elsewhere the v2 catalog, then v1 search when v2 or its catalog is absent or refused (many hosted registries
// disable it); when both fail, the first failure is reported.
export async function searchRegistry(registry: RegistryTarget, terms: string[], options: SearchRegistryOptions): Promise<RegistryImage[]> {
  const needles = [...new Set(terms.map((term) => term.trim().toLowerCase()).filter(Boolean))];
  if (needles.length === 0) return [];
  const limit = Math.min(Math.max(1, Math.floor(options.limit ?? DEFAULT_LIMIT)), MAX_LIMIT);
  const controller = new AbortController();
  const ctx = httpContext(registry, options, controller.signal);
  let timer: NodeJS.Timeout | undefined;
  // The race ends the search at the deadline even if some step ignored the abort signal.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(toDomainError(new Error('deadline'), ctx));
    }, options.timeoutMs);
  });
  const work = search(registry, needles, limit, ctx);
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } catch (error) {
    throw toDomainError(error, ctx);
  } finally {
    clearTimeout(timer);
  }
}

/** A repository that is missing or not ours to pull is a 404. */
export async function registryTags(registry: RegistryTarget, name: string, options: SearchRegistryOptions): Promise<string[]> {
  const controller = new AbortController();
  const ctx = httpContext(registry, options, controller.signal);
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const { url, userinfo } = endpointBase(registry, ctx);
    const hub = DOCKER_HUB_HOSTS.has(url.hostname);
    const base = hub ? new URL(DOCKER_HUB_V2) : url;
    const credentials = hasCredentials(registry.credentials) ? registry.credentials! : userinfo;
    // Docker Hub keeps official images under library/.
    const repository = hub && !name.includes('/') ? `library/${name}` : name;
    const tags = await listTags(new RegistrySession(base, credentials, ctx), repository);
    if (tags === null) throw new NotFoundError(`Registry "${registry.name}" has no repository ${name}`, ['name']);
    return tags;
  } catch (error) {
    if (error instanceof NotFoundError) throw error;
    throw toDomainError(error, ctx);
  } finally {
    clearTimeout(timer);
  }
}

// Lists first: a multi-platform tag's digest is its index's, which every engine pulls by.
const MANIFEST_TYPES = [
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
].join(', ');

/** The digest (`sha256:…`) the registry serves `name:reference` as now; null when it has no such manifest. */
export async function manifestDigest(
  registry: RegistryTarget,
  name: string,
  reference: string,
  options: SearchRegistryOptions,
): Promise<string | null> {
  const controller = new AbortController();
  const ctx = httpContext(registry, options, controller.signal);
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const { url, userinfo } = endpointBase(registry, ctx);
    const hub = DOCKER_HUB_HOSTS.has(url.hostname);
    const session = new RegistrySession(
      hub ? new URL(DOCKER_HUB_V2) : url,
      hasCredentials(registry.credentials) ? registry.credentials! : userinfo,
      ctx,
    );
    const repository = hub && !name.includes('/') ? `library/${name}` : name;
    const path = `/v2/${repository.split('/').map(encodeURIComponent).join('/')}/manifests/${encodeURIComponent(reference)}`;
    const response = await session.get(path, `repository:${repository}:pull`, MANIFEST_TYPES);
    if (response.status === 404) return null;
    if (response.status !== 200) throw session.failure(response);
    const header = response.headers['docker-content-digest'];
    const digest = Array.isArray(header) ? header[0] : header;
    return digest && /^sha256:[0-9a-f]{64}$/.test(digest) ? digest : `sha256:${createHash('sha256').update(response.body).digest('hex')}`;
  } catch (error) {
    throw toDomainError(error, ctx);
  } finally {
    clearTimeout(timer);
  }
}

async function search(registry: RegistryTarget, terms: string[], limit: number, ctx: HttpContext): Promise<RegistryImage[]> {
  const { url, userinfo } = endpointBase(registry, ctx);
  if (DOCKER_HUB_HOSTS.has(url.hostname)) {
    const result = await searchV1(new RegistrySession(new URL(DOCKER_HUB_INDEX), {}, ctx), terms, limit);
    if (result.ok) return result.images;
    throw result.error;
  }
  const credentials = hasCredentials(registry.credentials) ? registry.credentials! : userinfo;
  const session = new RegistrySession(url, credentials, ctx);
  if (await probeV2(session)) {
    const catalog = await searchCatalog(session, terms, limit);
    if (catalog.ok) return catalog.images;
    const v1 = await searchV1(session, terms, limit);
    if (v1.ok) return v1.images;
    throw catalog.error;
  }
  const v1 = await searchV1(session, terms, limit);
  if (v1.ok) return v1.images;
  throw upstream(
    ctx,
    `offers neither the registry v2 API (GET /v2/ answered 404) nor v1 search (${v1.error.message.replace(/^Registry "[^"]*": /, '')})`,
  );
}

/** Any user:password@ in the endpoint becomes the credentials. */
function endpointBase(registry: RegistryTarget, ctx: HttpContext): { url: URL; userinfo: RegistryCredentials } {
  const raw = registry.endpointUrl.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
  } catch {
    throw upstream(ctx, 'the endpoint URL is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw upstream(ctx, 'the endpoint URL is not http(s)');
  const userinfo = { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/v[12]$/, '') || '/';
  return { url, userinfo };
}

function hasCredentials(credentials: RegistryCredentials | undefined): boolean {
  return !!(credentials && (credentials.username || credentials.password || credentials.token));
}

/** The original's prefix (`http://example.com:5000/` gives `example.com:5000/`); empty for Docker Hub, never with credentials. */
export function imagePrefix(endpointUrl: string | null | undefined): string {
  const bare = (endpointUrl ?? '')
    .trim()
    .replace(/^[a-z][a-z\d+.-]*:\/\//i, '')
    .replace(/\/+$/, '')
    .replace(/^[^/@]*@/, '');
  if (!bare) return '';
  const hostname = bare.split('/')[0].replace(/:\d+$/, '').toLowerCase();
  return DOCKER_HUB_HOSTS.has(hostname) ? '' : `${bare}/`;
}

/** No registry: Docker Hub. */
export function imageReference(
  registry: Pick<RegistryTarget, 'endpointUrl'> | null | undefined,
  name: string,
  tag?: string | null,
): string {
  return `${imagePrefix(registry?.endpointUrl)}${name}${tag ? `:${tag}` : ''}`;
}
