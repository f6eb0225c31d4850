import { Agent, errors as undiciErrors, request } from 'undici';
import { UpstreamError, UpstreamTimeoutError, ValidationError } from '../../errors';
import { deadlineSignal, readLimited, ResponseTooLargeError } from '../../net/read-limited';
import type { DeployTemplate, DeployImage } from '../descriptor';
import type { Adapter, ServiceStatus } from './adapter';
import { scalarText } from '../../scalar-text';

// Adapter protocol v1: the adapter's `actualState` strings pass through verbatim; the agent adds
// "not found" (its 404) and "error" (any other failure status), as the original agents did.
const MAX_ADAPTER_ANSWER_BYTES = 8 * 1024 * 1024;

export function createHttpAdapter(options: { url: string; timeoutMs: number }): Adapter {
  const dispatcher = new Agent({
    connect: { timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  const base = options.url.replace(/\/+$/, '');

  async function call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) {
    try {
      const response = await request(`${base}${path}`, {
        method,
        dispatcher,
        // The dispatcher's timeouts bound each silence; the whole exchange has one deadline.
        signal: deadlineSignal(2 * options.timeoutMs),
        headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = (await readLimited(response.body, MAX_ADAPTER_ANSWER_BYTES, response.headers['content-length'])).toString('utf8');
      return { status: response.statusCode, text };
    } catch (error) {
      if (error instanceof ResponseTooLargeError)
        throw new UpstreamError(`The adapter answered ${method} ${path} with more than ${error.maxBytes} bytes.`);
      throw transportError(error, options);
    }
  }

  return {
    type: 'http',

    async metadata() {
      const { status, text } = await call('GET', '/v1/metadata');
      if (status !== 200) throw new UpstreamError(`The adapter answered GET /v1/metadata with HTTP ${status}: ${adapterMessage(text)}`);
      const body = parseJson(text) as { version?: unknown; type?: unknown } | undefined;
      if (!body || typeof body !== 'object')
        throw new UpstreamError('The adapter answered GET /v1/metadata with a body that is not a JSON object.');
      return { version: scalarText(body.version ?? ''), type: scalarText(body.type ?? '') };
    },

    async create(_key: string, template: DeployTemplate) {
      const { status, text } = await call('POST', '/v1/services', template.images.map(toAdapterService));
      if (status < 200 || status > 299) {
        const message = `The adapter refused the deployment (HTTP ${status}): ${adapterMessage(text)}`;
        // 4xx: the adapter judged the template (Fleet's 422, Kubernetes' 409); 5xx: it failed.
        throw status >= 400 && status < 500 ? new ValidationError(message, ['template']) : new UpstreamError(message);
      }
      const body = parseJson(text);
      if (!Array.isArray(body) || body.some((item) => !item || typeof item !== 'object' || !('id' in item))) {
        throw new UpstreamError('The adapter answered POST /v1/services without an array of {id} objects.');
      }
      return body.map((item: { id: unknown }) => String(item.id));
    },

    async status(ids: string[]) {
      return Promise.all(
        ids.map(async (id): Promise<ServiceStatus> => {
          const { status, text } = await call('GET', `/v1/services/${encodeURIComponent(id)}`);
          if (status === 404) return { id, actualState: 'not found' };
          if (status !== 200) return { id, actualState: 'error' };
          const body = parseJson(text) as { actualState?: unknown } | undefined;
          return { id, actualState: typeof body?.actualState === 'string' ? body.actualState : 'error' };
        }),
      );
    },

    async remove(_key: string, ids: string[]) {
      for (const id of ids) {
        const { status, text } = await call('DELETE', `/v1/services/${encodeURIComponent(id)}`);
        if (status === 404 || (status >= 200 && status < 300)) continue;
        throw new UpstreamError(`The adapter could not delete service "${id}" (HTTP ${status}): ${adapterMessage(text)}`);
      }
    },

    close: () => dispatcher.close(),
  };
}

/** The adapter's camelCase service form. */
export function toAdapterService(image: DeployImage): Record<string, unknown> {
  return {
    name: image.name,
    source: image.source ?? image.name,
    command: image.command,
    categories: image.category ? [image.category] : [],
    environment: (image.environment ?? []).map(({ variable, value }) => ({ variable, value })),
    links: (image.links ?? []).map((link) => ({ name: link.service, alias: link.alias })),
    expose: (image.expose ?? []).map((port) => (Number.isInteger(Number(port)) ? Number(port) : port)),
    ports: (image.ports ?? []).map((port) => ({
      containerPort: port.container_port,
      ...(port.host_port === undefined ? {} : { hostPort: port.host_port }),
      ...(port.proto === undefined ? {} : { protocol: port.proto }),
    })),
    volumes: (image.volumes ?? []).map((volume) => ({
      containerPath: volume.container_path,
      ...(volume.host_path === undefined ? {} : { hostPath: volume.host_path }),
    })),
    // The protocol guide says volumesFrom; the Go adapters (pmxadapter) decode volumes_from:
    // both are sent, as the original Ruby agent did, so either kind of adapter reads them.
    volumesFrom: (image.volumes_from ?? []).map((from) => ({ name: from.service })),
    volumes_from: (image.volumes_from ?? []).map((from) => ({ name: from.service })),
    deployment: { count: image.deployment?.count ?? 1 },
  };
}

function transportError(error: unknown, options: { url: string; timeoutMs: number }): Error {
  if (
    error instanceof undiciErrors.ConnectTimeoutError ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    (error as { name?: string } | null)?.name === 'TimeoutError'
  ) {
    return new UpstreamTimeoutError(`The adapter at ${options.url} did not answer within ${options.timeoutMs} ms.`);
  }
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return new UpstreamError(`The adapter at ${options.url} is unreachable${code ? ` (${code})` : ''}.`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Adapters answer errors as `{message}`, `{error}` or plain text. */
function adapterMessage(text: string): string {
  const body = parseJson(text) as { message?: unknown; error?: unknown } | undefined;
  const message = body && typeof body === 'object' ? (body.message ?? body.error) : undefined;
  return (typeof message === 'string' ? message : text).slice(0, 500) || '(empty body)';
}
