import { ValidationError } from '../src/errors';
import { RawBody, type RequestTransform, type ResponseTransform, type RestRequest } from './route-table';

/** The original web UI's dialect (docs/original-system.md), by the ids of the calls that need each transform. */

/** A7, T3: fields come as query parameters, the encoded record as the body; query keys win, as in Rails. */
export const queryOverBody: RequestTransform = (request) => ({
  ...request,
  body: { ...(isObject(request.body) ? request.body : {}), ...request.query },
});

/** Record-level requests (A6 rebuild, R4 reload) carry a body the operation must not read. */
export const ignoreBody: RequestTransform = (request) => ({ ...request, body: {} });

/** D8: `{resource_type: "Template" | "App", resource_id}` names a template, or an app deployed as a template made from it. */
export const deployResource: RequestTransform = (request) => {
  const body = isObject(request.body) ? request.body : {};
  if (body.resource_type === undefined && (body.template_id !== undefined || body.app_id !== undefined)) return request;
  const key = body.resource_type === 'Template' ? 'template_id' : body.resource_type === 'App' ? 'app_id' : undefined;
  if (!key) {
    throw new ValidationError(`resource_type ${JSON.stringify(body.resource_type ?? null)} cannot be deployed: give Template or App`, [
      'resource_type',
    ]);
  }
  return { ...request, body: { [key]: body.resource_id, override: body.override } };
};

/** A12–A14, A1's services: every key present, `host_path` "" for a data volume (the UI splits it), `expose` as numbers. */
export const serviceShape: ResponseTransform = (body) => mapRecords(body, shapeService);

export const appServicesShape: ResponseTransform = (body) =>
  mapRecords(body, (app) => ({ ...app, services: ((app.services as Record<string, unknown>[] | undefined) ?? []).map(shapeService) }));

function shapeService(service: Record<string, unknown>): Record<string, unknown> {
  const volumes = ((service.volumes as { host_path: string | null }[] | undefined) ?? []).map((v) => ({
    ...v,
    host_path: v.host_path ?? '',
  }));
  const expose = ((service.expose as string[] | undefined) ?? []).map((port) => (/^\d+$/.test(port) ? Number(port) : port));
  return { ...service, volumes, expose };
}

/** D6: `service_ids` as the strings the page prints, not `{name}` objects. */
export const serviceIdNames: ResponseTransform = (body) =>
  mapRecords(body, (d) => ({ ...d, service_ids: (d.service_ids as { name: string }[]).map((s) => s.name) }));

/** A8, A17: the original's systemd journal entries (microseconds as a string); none while the engine fails: the UI polls each second. */
export const journalEntries: ResponseTransform = (body) =>
  ((body ?? []) as { timestamp: string; service: string; stream: string; message: string; cursor: string }[]).map((e) => ({
    __CURSOR: e.cursor,
    __REALTIME_TIMESTAMP: `${Date.parse(e.timestamp) * 1000}`,
    SYSLOG_IDENTIFIER: e.service,
    MESSAGE: e.message,
    stream: e.stream,
  }));

interface UiSearchData {
  /** Absent when the row's `type` skipped it. */
  search?: {
    query: string;
    items: Record<string, unknown>[];
    errors: { registry_id: number; registry_name: string; message: string }[];
  };
  /** Absent when skipped; null when the engine failed (the row's `partial`). */
  localImages?: { id: string; tags: string[]; virtual_size: number }[] | null;
}

/** What each search `type` asks for; without a type, everything. */
const SEARCHED: Record<string, { sources?: string; search: boolean; localImages: boolean }> = {
  template: { sources: 'TEMPLATES', search: true, localImages: false },
  remote_image: { sources: 'REGISTRIES', search: true, localImages: false },
  local_image: { search: false, localImages: true },
};

/** S1: a search asks only what its `type` shows: templates need no registry nor engine, remote images no engine. */
export const searchSources: RequestTransform = (request) => {
  const type = searchType(request);
  const wanted = type === undefined ? { search: true, localImages: true } : (SEARCHED[type] ?? { search: false, localImages: false });
  const { sources: _client, ...query } = request.query;
  return {
    ...request,
    query: {
      ...query,
      ...(wanted.sources ? { sources: wanted.sources } : {}),
      with_search: String(wanted.search),
      with_local_images: String(wanted.localImages),
    },
  };
};

/**
 * S1: only the requested `type`'s keys (all without one). Without a type, an unreachable engine adds an
 * `errors` entry (`registry_id` null, "Docker engine"); asked for local images alone, its failure is the answer.
 */
export const searchByType: ResponseTransform = (body, request, failures) => {
  const data = body as UiSearchData;
  const type = searchType(request);
  const limit = Number(request.query.limit) > 0 ? Number(request.query.limit) : Infinity;
  const q = data.search?.query ?? lastValue(request.query.q) ?? '';
  const terms = q
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  const engine = failures.find((failure) => failure.field === 'localImages');
  const out: Record<string, unknown> = { q };
  if (!type || type === 'template') {
    out.templates = (data.search?.items ?? [])
      .filter((item) => item.id !== null)
      .map(({ registry_id: _r, registry_name: _n, tags: _t, is_official: _o, is_trusted: _u, star_count: _s, ...template }) => template);
  }
  if (!type || type === 'local_image') {
    if (engine && type === 'local_image') throw engine.error;
    out.local_images = (data.localImages ?? [])
      .filter((image) => image.tags.some((tag) => terms.some((term) => tag.toLowerCase().includes(term))))
      .slice(0, limit)
      .map((image) => ({ id: image.id, source: image.tags[0].replace(/:[^:/]+$/, ''), tags: image.tags }));
  }
  if (!type || type === 'remote_image') {
    out.remote_images = (data.search?.items ?? [])
      .filter((item) => item.id === null)
      .map((item) => ({
        source: (item.images as { source: string }[])[0]?.source.replace(/:[^:/]+$/, '') ?? item.name,
        // A v2 registry has no descriptions; the UI prints the member as text.
        description: item.description ?? '',
        is_official: item.is_official ?? false,
        is_trusted: item.is_trusted ?? false,
        star_count: item.star_count ?? 0,
        registry_id: item.registry_id,
        registry_name: item.registry_name,
      }));
    out.errors = [
      ...(data.search?.errors ?? []).map((e) => ({ registry_id: e.registry_id, registry_name: e.registry_name, summary: e.message })),
      ...(engine
        ? [
            {
              registry_id: null,
              registry_name: 'Docker engine',
              summary: `The local images could not be searched: ${engine.error.message}`,
            },
          ]
        : []),
    ];
  }
  return out;
};

/** The search's `type`; none for the no-JS form, which sends only `q` (or an empty type). */
function searchType(request: RestRequest): string | undefined {
  return lastValue(request.query.type) || undefined;
}

/** A query parameter's value; the last one when it was repeated, as the executor reads it. */
function lastValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/** A10: the Compose file itself, for download. */
export const composeText: ResponseTransform = (body) =>
  new RawBody((body as { compose_yaml: string }).compose_yaml, 'application/x-yaml; charset=utf-8');

/** D10: the UI parses the answer unconditionally; it must be JSON even where the spec sends none. */
export const emptyObject: ResponseTransform = (body) => body ?? {};

function mapRecords(body: unknown, f: (record: Record<string, unknown>) => Record<string, unknown>): unknown {
  if (Array.isArray(body)) return body.map((r) => f(r as Record<string, unknown>));
  return isObject(body) ? f(body) : body;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
