import { setImmediate } from 'node:timers/promises';
import { createSecureContext } from 'node:tls';
import { Pool, errors as undiciErrors } from 'undici';
import { z } from 'zod';
import {
  AgentRejectedTokenError,
  BadRequestError,
  DomainError,
  NotFoundError,
  UpstreamError,
  UpstreamTimeoutError,
  ValidationError,
} from '../errors';
import { readLimited, ResponseTooLargeError } from '../net/read-limited';
import { agentCalls, BoundedLabel, timed } from '../observability/metrics';
import { withSpan } from '../observability/tracing';
import { decodeAuthBlob, type AuthBlob } from './auth-blob';
import { mapLimit } from '../catalog/registry-image';

export interface AgentTarget {
  id: number | string;
  name: string;
  authBlob: string;
}

export interface AgentClientOptions {
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** For create, redeploy and delete, which wait minutes for the orchestrator (an image pull, a rollout). */
  deployTimeoutMs?: number;
  connections?: number;
  /** Largest answer read from an agent; past it the connection is dropped and the call is a 502. */
  maxResponseBytes?: number;
}

const metadataSchema = z.object({
  // `features` is an extension of interface B: the original agents do not send it.
  agent: z.object({ version: z.string(), features: z.array(z.string()).optional() }),
  adapter: z.object({ version: z.string(), type: z.string() }),
});
const deploymentSchema = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  template: z.number().int().nullable(),
  service_ids: z.array(z.string()),
});
// `reason` is an extension of interface B (the kubernetes adapter's): agents without it omit it.
const statusSchema = z.object({
  services: z.array(z.object({ id: z.string(), actualState: z.string(), reason: z.string().optional() })),
});
const deploymentStatusSchema = z.object({
  id: z.number().int(),
  name: z.string().nullable(),
  status: statusSchema,
});
// An agent that does not know `include=status` answers the spec's list; statuses are then read one by one.
const deploymentWithStatusSchema = deploymentSchema.extend({ status: statusSchema.optional() });
const errorSchema = z.object({ code: z.number().optional(), message: z.string(), fields: z.string().optional() });

export type AgentMetadata = z.output<typeof metadataSchema>;
export type RemoteDeployment = z.output<typeof deploymentSchema>;
export type RemoteDeploymentStatus = z.output<typeof deploymentStatusSchema>;
export type RemoteDeploymentWithStatus = z.output<typeof deploymentWithStatusSchema>;

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** Targets whose connections are opened at once (a few dozen: a fleet of hundreds would contend for the CPU). */
const OPEN_AT_ONCE = 32;

/**
 * The token's certificate is each pool's sole CA, SANs still checked (no SNI for an IP endpoint: TLS forbids it).
 * Every failure becomes a catalogue error naming the target and the cause.
 */
export class AgentClient {
  private readonly pools = new Map<string, { authBlob: string; pool: Pool; blob: AuthBlob; basePath: string }>();
  /** Per target id, the connection being opened ahead of the first call; calls meanwhile wait for it. */
  private readonly opening = new Map<string, Promise<void>>();
  /** Per target id, its latest metadata request (answered or on its way), for callers that accept a recent one. */
  private readonly lastMetadata = new Map<string, { authBlob: string; at: number; answer: Promise<AgentMetadata> }>();
  private closed = false;
  /** When the first of the open() calls running began; undefined when none runs. */
  private openingSince: number | undefined;
  private opens = 0;
  private readonly options: Required<AgentClientOptions>;

  constructor(options: AgentClientOptions = {}) {
    this.options = {
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      headersTimeoutMs: options.headersTimeoutMs ?? 10_000,
      bodyTimeoutMs: options.bodyTimeoutMs ?? 10_000,
      deployTimeoutMs: options.deployTimeoutMs ?? 120_000,
      connections: options.connections ?? 8,
      maxResponseBytes: options.maxResponseBytes ?? 8 * 1024 * 1024,
    };
  }

  /**
   * With `maxAgeMs`, an answer (or failure) at most that old, or one on its way, serves instead of a new
   * request: at start the health poller's first round takes the one made opening the connection.
   */
  metadata(target: AgentTarget, maxAgeMs = 0): Promise<AgentMetadata> {
    const key = String(target.id);
    const last = this.lastMetadata.get(key);
    if (maxAgeMs > 0 && last?.authBlob === target.authBlob && Date.now() - last.at <= maxAgeMs) return last.answer;
    const answer = this.call(target, 'GET', '/metadata', undefined, metadataSchema);
    const entry = { authBlob: target.authBlob, at: Date.now(), answer };
    this.lastMetadata.set(key, entry);
    const answered = () => void (entry.at = Date.now());
    answer.then(answered, answered);
    return answer;
  }

  listDeployments(target: AgentTarget): Promise<RemoteDeployment[]> {
    return this.call(target, 'GET', '/deployments', undefined, z.array(deploymentSchema));
  }

  listDeploymentsWithStatus(target: AgentTarget): Promise<RemoteDeploymentWithStatus[]> {
    return this.call(target, 'GET', '/deployments?include=status', undefined, z.array(deploymentWithStatusSchema));
  }

  getDeployment(target: AgentTarget, id: number | string): Promise<RemoteDeploymentStatus> {
    return this.call(target, 'GET', `/deployments/${encodeURIComponent(String(id))}`, undefined, deploymentStatusSchema);
  }

  createDeployment(target: AgentTarget, descriptor: unknown): Promise<RemoteDeployment> {
    return this.call(target, 'POST', '/deployments', descriptor, deploymentSchema, this.options.deployTimeoutMs);
  }

  async deleteDeployment(target: AgentTarget, id: number | string): Promise<void> {
    await this.call(target, 'DELETE', `/deployments/${encodeURIComponent(String(id))}`, undefined, null, this.options.deployTimeoutMs);
  }

  /** With `descriptor` (only to an agent whose metadata lists `redeploy_descriptor`), it replaces the stored one. */
  redeploy(target: AgentTarget, id: number | string, descriptor?: unknown): Promise<RemoteDeployment> {
    return this.call(
      target,
      'POST',
      `/deployments/${encodeURIComponent(String(id))}/redeploy`,
      descriptor,
      deploymentSchema,
      this.options.deployTimeoutMs,
    );
  }

  /**
   * Opens a connection to each target ahead of its first call, with a metadata request each. A call
   * made meanwhile waits for it: undici would open a second connection beside the one still in its TLS
   * handshake, and a fresh service's first fan-out paid two handshakes per agent.
   */
  async open(targets: AgentTarget[]): Promise<void> {
    if (targets.length === 0) return;
    if (this.opens++ === 0) this.openingSince = Date.now();
    try {
      await this.openEach(targets);
    } finally {
      if (--this.opens === 0) this.openingSince = undefined;
    }
  }

  /** For readiness: whether an open() has been running for less than `boundMs`. */
  isOpening(boundMs: number): boolean {
    return this.openingSince !== undefined && Date.now() - this.openingSince < boundMs;
  }

  private async openEach(targets: AgentTarget[]): Promise<void> {
    await mapLimit(targets, OPEN_AT_ONCE, async (target) => {
      const key = String(target.id);
      if (this.closed || this.pools.has(key) || this.opening.has(key)) return;
      // Its own call has looked for `opening` before this is set: a call runs synchronously up to its request.
      const opened = this.metadata(target).then(
        () => this.connectionFreed(key),
        () => undefined,
      );
      this.opening.set(key, opened);
      await opened;
      this.opening.delete(key);
    });
  }

  /** undici marks a connection free a turn of the event loop after its answer has been read. */
  private async connectionFreed(key: string): Promise<void> {
    const pool = this.pools.get(key)?.pool;
    for (let turn = 0; pool && pool.stats.connected > 0 && pool.stats.free === 0 && turn < 3; turn++) await setImmediate();
  }

  /** When its token changed or it was deleted. */
  async forget(targetId: number | string): Promise<void> {
    const entry = this.pools.get(String(targetId));
    this.pools.delete(String(targetId));
    this.lastMetadata.delete(String(targetId));
    await entry?.pool.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    const entries = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(entries.map((entry) => entry.pool.close()));
  }

  private poolFor(target: AgentTarget): { pool: Pool; blob: AuthBlob; basePath: string } {
    const key = String(target.id);
    const existing = this.pools.get(key);
    if (existing?.authBlob === target.authBlob) return existing;
    // A token that does not decode fails here, before the target's working connections are closed.
    const blob = decodeAuthBlob(target.authBlob);
    if (existing) void existing.pool.close().catch(() => undefined);
    const pool = new Pool(new URL(blob.endpointUrl).origin, {
      connections: this.options.connections,
      // One context per pool: given `ca`, every connection parsed the certificate into a context of its own.
      connect: {
        secureContext: createSecureContext({ ca: blob.certificatePem }),
        rejectUnauthorized: true,
        timeout: this.options.connectTimeoutMs,
      },
      headersTimeout: this.options.headersTimeoutMs,
      bodyTimeout: this.options.bodyTimeoutMs,
    });
    const entry = { authBlob: target.authBlob, pool, blob, basePath: new URL(blob.endpointUrl).pathname.replace(/\/+$/, '') };
    this.pools.set(key, entry);
    return entry;
  }

  private call<T>(
    target: AgentTarget,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body: unknown,
    schema: z.ZodType<T> | null,
    timeoutMs?: number,
  ): Promise<T> {
    const operation = agentOperation(method, path);
    return withSpan(`agent ${operation}`, { 'platform.target.id': String(target.id) }, () =>
      timed(agentCalls, { target: targetLabel(target.id), operation }, () => this.exchange(target, method, path, body, schema, timeoutMs)),
    );
  }

  private async exchange<T>(
    target: AgentTarget,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body: unknown,
    schema: z.ZodType<T> | null,
    timeoutMs?: number,
  ): Promise<T> {
    const who = `deployment target "${target.name}"`;
    const { pool, blob, basePath } = this.poolFor(target);
    let status: number;
    let text: string;
    let answered = false;
    // undici's timeouts bound each silence, so a dripping agent could hold the call forever: a whole deadline too.
    const answerTimeoutMs = timeoutMs ?? this.options.headersTimeoutMs;
    const deadline = AbortSignal.timeout(this.options.connectTimeoutMs + answerTimeoutMs);
    const opening = this.opening.get(String(target.id));
    if (opening) await Promise.race([opening, aborted(deadline)]);
    try {
      const response = await pool.request({
        method,
        path: `${basePath}${path}`,
        headers: {
          accept: 'application/json',
          authorization: `Basic ${Buffer.from(`${blob.username}:${blob.password}`).toString('base64')}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: deadline,
        ...(timeoutMs === undefined ? {} : { headersTimeout: timeoutMs, bodyTimeout: timeoutMs }),
      });
      answered = true;
      status = response.statusCode;
      text = (await readLimited(response.body, this.options.maxResponseBytes, response.headers['content-length'])).toString('utf8');
    } catch (error) {
      if (error instanceof ResponseTooLargeError) {
        throw new UpstreamError(`The agent of ${who} answered ${method} ${path} with more than ${error.maxBytes} bytes.`);
      }
      // Before the headers, the deadline and undici's coarse headers timer race for the same silence.
      if (deadline.aborted && !answered) {
        throw new UpstreamTimeoutError(`The agent of ${who} at ${blob.endpointUrl} did not answer within ${answerTimeoutMs} ms.`);
      }
      if (deadline.aborted) {
        throw new UpstreamTimeoutError(
          `The agent of ${who} at ${blob.endpointUrl} did not finish answering within ${this.options.connectTimeoutMs + answerTimeoutMs} ms.`,
        );
      }
      throw transportError(error, who, blob.endpointUrl, {
        connectTimeoutMs: this.options.connectTimeoutMs,
        answerTimeoutMs,
      });
    }
    if (status >= 200 && status < 300) {
      if (schema === null) return undefined as T;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new UpstreamError(`The agent of ${who} answered ${method} ${path} with a body that is not JSON.`);
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new UpstreamError(
          `The agent of ${who} answered ${method} ${path} with an unexpected body (${issue.path.join('.') || 'body'}: ${issue.message}).`,
        );
      }
      return parsed.data;
    }
    throw statusError(status, text, who, method, path);
  }
}

// Targets are few and made by operators; past this many, the rest share one label.
const targetLabels = new BoundedLabel('target', 100);

/** A token checked before it is stored has a provisional key: never label its URL, which a client typed. */
function targetLabel(id: number | string): string {
  const key = String(id);
  const stored = /^(?:check:)?(\d+)$/.exec(key)?.[1];
  return stored ? targetLabels.value(stored) : 'new';
}

/** An interface-B call as a label: its name in the spec's table, never its ids. */
function agentOperation(method: string, path: string): string {
  const template = path.split('?')[0].replace(/^\/deployments\/[^/]+/, '/deployments/:id');
  return AGENT_OPERATIONS[`${method} ${template}`] ?? 'other';
}

const AGENT_OPERATIONS: Record<string, string> = {
  'GET /metadata': 'metadata',
  'GET /deployments': 'list_deployments',
  'POST /deployments': 'create_deployment',
  'GET /deployments/:id': 'get_deployment',
  'DELETE /deployments/:id': 'delete_deployment',
  'POST /deployments/:id/redeploy': 'redeploy',
};

function statusError(status: number, text: string, who: string, method: string, path: string): DomainError {
  let detail: { message: string; fields: string[] } | undefined;
  try {
    const parsed = errorSchema.safeParse(JSON.parse(text));
    if (parsed.success) {
      detail = { message: parsed.data.message, fields: (parsed.data.fields ?? '').split(',').filter(Boolean) };
    }
  } catch {
    // not JSON: the status alone says what happened
  }
  const said = detail ? `: ${detail.message}` : '';
  if (status === 401 || status === 403) {
    return new AgentRejectedTokenError(
      `The agent of ${who} rejected the credentials in its token (HTTP ${status}${said}); the password may have been rotated.`,
    );
  }
  if (status === 404)
    return new NotFoundError(`Not found on ${who} (${method} ${path})${said}`, detail?.fields.length ? detail.fields : ['id']);
  if (status === 400) return new BadRequestError(`${who} refused the request${said}`, detail?.fields ?? []);
  if (status === 422 || status === 413) return new ValidationError(`${who} refused the request${said}`, detail?.fields ?? []);
  if (status === 504) return new UpstreamTimeoutError(`The orchestrator behind ${who} timed out${said}`);
  return new UpstreamError(`The agent of ${who} answered ${method} ${path} with HTTP ${status}${said}`);
}

function transportError(
  error: unknown,
  who: string,
  url: string,
  options: { connectTimeoutMs: number; answerTimeoutMs: number },
): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof undiciErrors.ConnectTimeoutError) {
    return new UpstreamTimeoutError(`The agent of ${who} at ${url} did not accept a connection within ${options.connectTimeoutMs} ms.`);
  }
  if (error instanceof undiciErrors.HeadersTimeoutError || error instanceof undiciErrors.BodyTimeoutError) {
    return new UpstreamTimeoutError(`The agent of ${who} at ${url} did not answer within ${options.answerTimeoutMs} ms.`);
  }
  const code = errorCode(error);
  if (code && (TLS_CODES.has(code) || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS'))) {
    return new AgentRejectedTokenError(
      `The agent of ${who} at ${url} presented a TLS certificate that does not match the one in its token (${code}).`,
    );
  }
  if (code === 'ECONNREFUSED') return new UpstreamError(`The agent of ${who} at ${url} refused the connection: is it running?`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new UpstreamError(`The host name of ${who} (${url}) does not resolve.`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return new UpstreamError(`The agent of ${who} at ${url} is unreachable (${code}).`);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return new UpstreamError(`The agent of ${who} at ${url} closed the connection (${code}).`);
  }
  return new UpstreamError(`The agent of ${who} at ${url} could not be reached${code ? ` (${code})` : ''}.`);
}

/** The most specific code on the error or its causes (undici wraps socket errors). */
function errorCode(error: unknown): string | undefined {
  const codes: string[] = [];
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes.find((code) => !code.startsWith('UND_ERR')) ?? codes[0];
}

/** Settles when the signal aborts; what waits on it then meets the abort in its own request. */
function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
}
