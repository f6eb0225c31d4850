import type { IncomingHttpHeaders } from 'node:http';
import { request, type Dispatcher } from 'undici';
import { DomainError, UnreachableError, UpstreamError, UpstreamTimeoutError } from '../errors';
import { OutboundRefusedError, type OutboundPolicy } from './outbound-policy';
import { scalarText } from '../scalar-text';
import { registryCalls, timed } from '../observability/metrics';
import { withSpan } from '../observability/tracing';

export interface HttpContext {
  registryName: string;
  timeoutMs: number;
  signal: AbortSignal;
  dispatcher?: Dispatcher;
  /** The service always sets one; without it, anywhere. */
  policy?: OutboundPolicy;
}

export interface HttpInit {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** After redirects. */
  url: URL;
}

// Registry answers are small: a larger body is a misconfigured endpoint, not something to buffer.
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

// Redirects by hand: undici's own would carry the Authorization header to whatever host the registry named.
export async function send(url: URL, init: HttpInit, ctx: HttpContext): Promise<HttpResponse> {
  let current = url;
  let { method = 'GET', headers = {}, body } = init;
  for (let hop = 0; ; hop++) {
    const response = await attempt(current, { method, headers, body }, ctx);
    const location = response.headers.location;
    if (response.status < 300 || response.status >= 400 || response.status === 304 || !location) return response;
    if (hop >= MAX_REDIRECTS) throw upstream(ctx, `too many redirects from ${method} ${url.pathname}`);
    const next = new URL(String(location), current);
    if (!keepsCredentials(current, next)) headers = withoutAuthorization(headers);
    if (response.status === 303 || (method === 'POST' && response.status <= 302)) {
      method = 'GET';
      body = undefined;
    }
    current = next;
  }
}

/** One request, timed by endpoint kind for /metrics and traced. */
function attempt(url: URL, init: HttpInit, ctx: HttpContext): Promise<HttpResponse> {
  const endpoint = registryEndpoint(url.pathname);
  return withSpan(`registry ${endpoint}`, {}, () => timed(registryCalls, { endpoint }, () => exchange(url, init, ctx)));
}

/** A registry path as a label: the API endpoint it is, never the image names in it. */
function registryEndpoint(pathname: string): string {
  if (/^\/v2\/?$/.test(pathname)) return 'v2_ping';
  if (pathname === '/v2/_catalog') return 'v2_catalog';
  const v2 = /^\/v2\/.+\/(tags|manifests|blobs)\//.exec(pathname);
  if (v2) return `v2_${v2[1]}`;
  if (pathname === '/v1/search') return 'v1_search';
  if (/^\/v1\/repositories\/.+\/tags/.test(pathname)) return 'v1_tags';
  if (pathname.startsWith('/v1/')) return 'v1_other';
  return 'other';
}

async function exchange(url: URL, init: HttpInit, ctx: HttpContext): Promise<HttpResponse> {
  try {
    ctx.policy?.assertUrl(url);
    const response = await request(url, {
      method: init.method ?? 'GET',
      headers: init.headers,
      body: init.body,
      signal: ctx.signal,
      dispatcher: ctx.dispatcher ?? ctx.policy?.dispatcher,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        response.body.destroy();
        throw upstream(ctx, `answer to ${init.method ?? 'GET'} ${url.pathname} is larger than ${MAX_BODY_BYTES} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
    return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks), url };
  } catch (error) {
    throw toDomainError(error, ctx);
  }
}

/** Credentials go on only to the same host, and never from https down to http. */
function keepsCredentials(from: URL, to: URL): boolean {
  if (from.protocol === 'https:' && to.protocol !== 'https:') return false;
  if (from.origin === to.origin) return true;
  return from.hostname === to.hostname && to.protocol === 'https:';
}

function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
}

export function upstream(ctx: Pick<HttpContext, 'registryName'>, cause: string): UpstreamError {
  return new UpstreamError(`Registry "${ctx.registryName}": ${cause}`);
}

export function toDomainError(error: unknown, ctx: HttpContext): DomainError {
  if (error instanceof DomainError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (ctx.signal.aborted || (typeof code === 'string' && TIMEOUT_CODES.has(code))) {
    return new UpstreamTimeoutError(`Registry "${ctx.registryName}": no answer within ${ctx.timeoutMs} ms`);
  }
  // One message for every way of not reaching it: a client who names addresses learns nothing about them.
  const reason = ctx.policy || isRefused(error) ? 'cannot be reached' : `cannot be reached (${describe(error)})`;
  return new UnreachableError(`Registry "${ctx.registryName}": ${reason}`);
}

function isRefused(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    if (current instanceof OutboundRefusedError) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const code = (error as { code?: unknown }).code;
  const text = `${error.message || scalarText(code ?? error.name)}${cause}`;
  // Messages of network errors name hosts and ports; strip any user:password@ all the same.
  return text.replace(/\/\/[^/\s@]*@/g, '//');
}

export function parseJson(response: HttpResponse, ctx: HttpContext): unknown {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw upstream(ctx, `invalid JSON from GET ${response.url.pathname}`);
  }
}
