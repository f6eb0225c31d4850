import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Pool } from 'undici';
import { UpstreamError } from '../errors';
import { deadlineSignal, readLimited, ResponseTooLargeError } from '../net/read-limited';
import { engineCalls, timed } from '../observability/metrics';
import { withSpan } from '../observability/tracing';
import { EngineNotFoundError, statusError, transportError } from './engine-errors';

export interface EngineConnectionOptions {
  /** `unix:///path/to/docker.sock` or `tcp://host:port`; default the local unix socket. */
  host?: string;
  /** Per call unless a call says otherwise: time to connect, to the headers, between body chunks. */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  apiVersion?: string;
}

export type QueryValue = string | number | boolean | undefined | null | Record<string, unknown> | unknown[];

export interface EngineRequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  rawBody?: Buffer | Readable;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** The longest silence inside the body; default `timeoutMs`, 0 for streams that may idle. */
  bodyTimeoutMs?: number;
  signal?: AbortSignal;
}

export interface EngineStream {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

export const DEFAULT_DOCKER_HOST = 'unix:///var/run/docker.sock';
const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_ENGINE_ANSWER_BYTES = 64 * 1024 * 1024;

/** A Pool, not a Client: a followed log or event stream holds its connection and must not queue other calls. */
export class EngineHttp {
  readonly host: string;
  protected readonly timeoutMs: number;
  private readonly pool: Pool;
  private readonly prefix: string;

  constructor(options: EngineConnectionOptions = {}) {
    this.host = options.host ?? DEFAULT_DOCKER_HOST;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.prefix = options.apiVersion ? `/v${options.apiVersion}` : '';
    const connectTimeout = options.connectTimeoutMs ?? this.timeoutMs;
    const url = new URL(this.host);
    if (url.protocol === 'unix:') {
      this.pool = new Pool('http://localhost', { socketPath: url.pathname, connectTimeout, connections: 16 });
    } else if (url.protocol === 'tcp:' || url.protocol === 'http:') {
      this.pool = new Pool(`http://${url.host}`, { connectTimeout, connections: 16 });
    } else {
      throw new Error(`unsupported container engine address ${this.host}: use unix:///path or tcp://host:port`);
    }
  }

  /** A 304 ("already started/stopped") is a success. */
  async request<T = unknown>(method: string, path: string, options: EngineRequestOptions = {}): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    // The timeouts bound each silence; the whole exchange gets a deadline too (headers, then body).
    const response = await this.stream(method, path, { ...options, signal: deadlineSignal(2 * timeoutMs, options.signal) });
    let body: Buffer;
    try {
      body = await readLimited(response.body, MAX_ENGINE_ANSWER_BYTES, response.headers['content-length']);
    } catch (error) {
      if (error instanceof ResponseTooLargeError)
        throw new UpstreamError(`container engine at ${this.host} answered ${method} ${path} with more than ${error.maxBytes} bytes`);
      throw transportError(error, this.host, `${method} ${path}`, timeoutMs);
    }
    const text = body.toString('utf8');
    if (!text) return undefined as T;
    const type = String(response.headers['content-type'] ?? '');
    return (type.includes('json') ? JSON.parse(text) : text) as T;
  }

  /** Timed to the answer's headers for /metrics. */
  stream(method: string, path: string, options: EngineRequestOptions = {}): Promise<EngineStream> {
    const operation = engineOperation(method, path);
    return withSpan(`engine ${operation}`, {}, () => timed(engineCalls, { operation }, () => this.send(method, path, options)));
  }

  private async send(method: string, path: string, options: EngineRequestOptions): Promise<EngineStream> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const what = `${method} ${path}`;
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let response;
    try {
      response = await this.pool.request({
        method: method,
        path: this.prefix + path + queryString(options.query),
        headers,
        body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
        headersTimeout: timeoutMs,
        bodyTimeout: options.bodyTimeoutMs ?? timeoutMs,
        signal: options.signal,
      });
    } catch (error) {
      throw transportError(error, this.host, what, timeoutMs);
    }
    if (response.statusCode >= 400) {
      const text = await response.body.text().catch(() => '');
      throw statusError(response.statusCode, text, what);
    }
    return { statusCode: response.statusCode, headers: response.headers, body: response.body };
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

// Engine API objects addressed by id or name: those parts of a path are never labels.
const BY_ID = new Set([
  'containers',
  'images',
  'networks',
  'volumes',
  'exec',
  'services',
  'tasks',
  'nodes',
  'secrets',
  'configs',
  'plugins',
  'distribution',
]);
const COLLECTION_ACTIONS = new Set(['json', 'create', 'prune', 'load', 'get', 'search']);
const OBJECT_ACTIONS = new Set(
  'json start stop restart kill wait logs attach archive exec resize pause unpause update rename top changes export stats history push tag connect disconnect'.split(
    ' ',
  ),
);
const OTHER_KINDS = new Set(['_ping', 'info', 'version', 'events', 'build', 'auth', 'system', 'swarm', 'session', 'commit']);

/** An Engine API call as a label: `POST /containers/{id}/start`, with ids and names taken out. */
export function engineOperation(method: string, path: string): string {
  const segments = path.split('?')[0].split('/').filter(Boolean);
  if (/^v\d+\.\d+$/.test(segments[0] ?? '')) segments.shift();
  const [kind, ...rest] = segments;
  if (kind && BY_ID.has(kind)) {
    if (rest.length === 0) return `${method} /${kind}`;
    if (rest.length === 1 && COLLECTION_ACTIONS.has(rest[0])) return `${method} /${kind}/${rest[0]}`;
    const last = rest[rest.length - 1];
    return `${method} /${kind}/{id}${rest.length > 1 && OBJECT_ACTIONS.has(last) ? `/${last}` : ''}`;
  }
  if (kind && OTHER_KINDS.has(kind)) return `${method} /${kind}${rest[0] && /^[a-z]{1,20}$/.test(rest[0]) ? `/${rest[0]}` : ''}`;
  return `${method} other`;
}

export function queryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** `{key: value}` filters on labels; an empty value matches any container that has the key. */
export function labelFilter(labels: Record<string, string> | undefined): string[] | undefined {
  if (!labels || Object.keys(labels).length === 0) return undefined;
  return Object.entries(labels).map(([key, value]) => (value === '' ? key : `${key}=${value}`));
}

// Image names keep their slashes (`library/busybox`); everything else in an id is escaped.
export const enginePath = (kind: string, id: string, action = ''): string =>
  `/${kind}/${id.split('/').map(encodeURIComponent).join('/')}${action ? `/${action}` : ''}`;

export async function orNull<T>(pending: Promise<T>): Promise<T | null> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof EngineNotFoundError) return null;
    throw error;
  }
}
