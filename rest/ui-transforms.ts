import { ValidationError } from '../src/errors';
import { RawBody, type RequestTransform, type ResponseTransform } from './dialect';

/**
 * The original web UI's dialect (docs/original-system.md "Original web UI dialect"), as small
 * transforms that the rows of rest/legacy-ui-routes.ts declare. Each says which call needs it.
 */

/**
 * A7, T3: the UI passes its fields as query parameters and the encoded record as the body;
 * the original merged query over body (Rails: query keys win).
 */
export const queryOverBody: RequestTransform = (request) => ({
  ...request,
  body: { ...(isObject(request.body) ? request.body : {}), ...request.query },
});

/** Record-level requests (A6 rebuild, R4 reload) carry a body the operation must not read. */
export const ignoreBody: RequestTransform = (request) => ({ ...request, body: {} });

/**
 * D8: `{resource_type: "Template", resource_id: "12"}` names what to deploy; only templates can be.
 * `display_name` is the UI's own label.
 */
export const deployResource: RequestTransform = (request) => {
  const body = isObject(request.body) ? request.body : {};
  if (body.resource_type === undefined && body.template_id !== undefined) return request;
  if (body.resource_type !== 'Template') {
    throw new ValidationError(
      `resource_type ${JSON.stringify(body.resource_type ?? null)} cannot be deployed: save the app as a template, then deploy the template`,
      ['resource_type'],
    );
  }
  return { ...request, body: { template_id: body.resource_id, override: body.override } };
};

/**
 * A12, A13, A14 and A1's embedded services: every key present, `host_path` a string ("" for a
 * data volume: the UI splits it), `expose` as numbers like the original's (strings after a UI
 * edit are accepted back).
 */
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

/**
 * A8, A17: systemd journal entries, as the original's journal API answered: the cursor, the
 * time in microseconds (a string), the service as SYSLOG_IDENTIFIER, the line as MESSAGE.
 */
export const journalEntries: ResponseTransform = (body) =>
  (body as { timestamp: string; service: string; stream: string; message: string; cursor: string }[]).map((e) => ({
    __CURSOR: e.cursor,
    __REALTIME_TIMESTAMP: `${Date.parse(e.timestamp) * 1000}`,
    SYSLOG_IDENTIFIER: e.service,
    MESSAGE: e.message,
    stream: e.stream,
  }));

interface UiSearchData {
  search: { query: string; items: Record<string, unknown>[]; errors: { registry_id: number; registry_name: string; message: string }[] };
  localImages: { id: string; tags: string[]; virtual_size: number }[];
}

/**
 * S1: an object of arrays, only the keys of the requested `type` (all of them without one):
 * `templates`, `local_images` (engine images whose tag contains a term), `remote_images` with
 * `errors` (one `summary` per registry that could not be searched).
 */
export const searchByType: ResponseTransform = (body, request) => {
  const data = body as UiSearchData;
  const type = typeof request.query.type === 'string' ? request.query.type : undefined;
  const limit = Number(request.query.limit) > 0 ? Number(request.query.limit) : Infinity;
  const terms = data.search.query
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  const out: Record<string, unknown> = { q: data.search.query };
  if (!type || type === 'template') {
    out.templates = data.search.items
      .filter((item) => item.id !== null)
      .map(({ registry_id: _r, registry_name: _n, tags: _t, is_official: _o, is_trusted: _u, star_count: _s, ...template }) => template);
  }
  if (!type || type === 'local_image') {
    out.local_images = data.localImages
      .filter((image) => image.tags.some((tag) => terms.some((term) => tag.toLowerCase().includes(term))))
      .slice(0, limit)
      .map((image) => ({ id: image.id, source: image.tags[0].replace(/:[^:/]+$/, ''), tags: image.tags }));
  }
  if (!type || type === 'remote_image') {
    out.remote_images = data.search.items
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
    out.errors = data.search.errors.map((e) => ({ registry_id: e.registry_id, registry_name: e.registry_name, summary: e.message }));
  }
  return out;
};

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
