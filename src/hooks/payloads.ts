import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { BadRequestError, UnauthenticatedError } from '../errors';
import type { HookKind } from './hook.entity';

export interface HookRequest {
  /** A retry carries the same; null when the sender sends none. */
  deliveryId: string | null;
  event: string | null;
  /** False for calls that ask for nothing (GitHub's ping, a registry's pull): answered, not run. */
  actionable: boolean;
  reason?: string;
  images: PushedImage[];
  tag: string | null;
}

export interface PushedImage {
  /** As the pushers named them, with their hosts: `host:port/team/web`. */
  repositories: string[];
  tag: string | null;
}

const header = (headers: IncomingHttpHeaders, name: string): string | null => {
  const value = headers[name];
  return typeof value === 'string' ? value : Array.isArray(value) ? (value[0] ?? null) : null;
};

function sameText(a: string, b: string): boolean {
  const da = createHash('sha256').update(a).digest();
  const db = createHash('sha256').update(b).digest();
  return timingSafeEqual(da, db);
}

function hmacMatches(secret: string, body: Buffer, given: string | null): boolean {
  if (!given || !/^sha256=[0-9a-f]{64}$/i.test(given.trim())) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  return sameText(expected, given.trim().toLowerCase());
}

// Each sender's own scheme: GitLab sends the secret itself, a registry a bearer from distribution's endpoint
// headers, GitHub and generic callers an HMAC-SHA256 of the raw body.
export function verify(kind: HookKind, secret: string, headers: IncomingHttpHeaders, body: Buffer): void {
  let ok: boolean;
  switch (kind) {
    case 'github':
      ok = hmacMatches(secret, body, header(headers, 'x-hub-signature-256'));
      break;
    case 'gitlab': {
      const token = header(headers, 'x-gitlab-token');
      ok = token !== null && sameText(token, secret);
      break;
    }
    case 'registry': {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header(headers, 'authorization') ?? '');
      ok = match !== null && sameText(match[1], secret);
      break;
    }
    default:
      ok = hmacMatches(secret, body, header(headers, 'x-platform-signature'));
  }
  if (!ok) throw new UnauthenticatedError(`the call is not signed with this hook's secret (${SIGNED_BY[kind]})`);
}

const SIGNED_BY: Record<HookKind, string> = {
  github: 'X-Hub-Signature-256',
  gitlab: 'X-Gitlab-Token',
  registry: 'Authorization: Bearer',
  generic: 'X-Platform-Signature',
};

/** Only after `verify`. */
export function readRequest(kind: HookKind, headers: IncomingHttpHeaders, body: Buffer): HookRequest {
  const json = parseBody(body);
  switch (kind) {
    case 'github': {
      const event = header(headers, 'x-github-event');
      return {
        deliveryId: header(headers, 'x-github-delivery'),
        event,
        actionable: event === 'push',
        reason: event === 'push' ? undefined : `GitHub event ${event ?? '(none)'} asks for nothing`,
        images: [],
        tag: null,
      };
    }
    case 'gitlab': {
      const event = header(headers, 'x-gitlab-event');
      const push = event === 'Push Hook' || event === 'Tag Push Hook';
      return {
        deliveryId: header(headers, 'idempotency-key') ?? header(headers, 'x-gitlab-event-uuid'),
        event,
        actionable: push,
        reason: push ? undefined : `GitLab event ${event ?? '(none)'} asks for nothing`,
        images: [],
        tag: null,
      };
    }
    case 'registry':
      return registryRequest(json);
    default: {
      const fields = (json ?? {}) as { tag?: unknown; image?: unknown };
      if (fields.tag !== undefined && (typeof fields.tag !== 'string' || !/^[\w][\w.-]{0,127}$/.test(fields.tag)))
        throw new BadRequestError('tag must be an image tag ([A-Za-z0-9_][A-Za-z0-9_.-]*)', ['tag']);
      if (fields.image !== undefined && typeof fields.image !== 'string') throw new BadRequestError('image must be a string', ['image']);
      const tag = fields.tag ?? null;
      return {
        deliveryId: header(headers, 'x-platform-delivery') ?? header(headers, 'idempotency-key'),
        event: header(headers, 'x-platform-event') ?? 'deploy',
        actionable: true,
        images: typeof fields.image === 'string' ? [{ repositories: [stripTag(fields.image)], tag }] : [],
        tag,
      };
    }
  }
}

interface RegistryEvent {
  id?: unknown;
  action?: unknown;
  target?: { repository?: unknown; tag?: unknown; url?: unknown; mediaType?: unknown };
  request?: { host?: unknown };
}

/** Pushes of tagged manifests ask to deploy; pulls and blob pushes ask for nothing. */
function registryRequest(json: unknown): HookRequest {
  const events = (json as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) throw new BadRequestError('a registry notification carries an events list', ['events']);
  const list = events as RegistryEvent[];
  const ids = list.map((e) => (typeof e.id === 'string' ? e.id : '')).filter(Boolean);
  const images: PushedImage[] = [];
  for (const event of list) {
    const repository = event.target?.repository;
    const tag = event.target?.tag;
    if (event.action !== 'push' || typeof repository !== 'string' || typeof tag !== 'string' || !tag) continue;
    const hosts = new Set<string>();
    if (typeof event.request?.host === 'string') hosts.add(event.request.host);
    if (typeof event.target?.url === 'string') {
      try {
        hosts.add(new URL(event.target.url).host);
      } catch {
        // a url that does not parse names no host
      }
    }
    images.push({ repositories: [...hosts].map((host) => `${host}/${repository}`), tag });
  }
  return {
    deliveryId: ids.length ? ids.join(',').slice(0, 500) : null,
    event: images.length ? 'push' : 'other',
    actionable: images.length > 0,
    reason: images.length ? undefined : 'the notification has no push of a tagged manifest',
    images,
    tag: null,
  };
}

function parseBody(body: Buffer): unknown {
  if (body.length === 0) return null;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new BadRequestError('the body is not JSON');
  }
}

/** `host:5000/team/web:v1` → `host:5000/team/web` (a digest goes too). */
export function stripTag(ref: string): string {
  const noDigest = ref.split('@')[0];
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > slash ? noDigest.slice(0, colon) : noDigest;
}

export function tagOf(ref: string): string {
  const noDigest = ref.split('@')[0];
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > slash ? noDigest.slice(colon + 1) : 'latest';
}
