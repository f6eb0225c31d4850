import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Pool } from 'pg';

/**
 * The floor for scenario 1: node:http + pg, no framework, no GraphQL, no ORM. The same SQL as
 * the service: the bearer token's digest looked up in api_tokens (the bench sends an issued
 * token, as clients do), then templates and their images; the same JSON as GET /templates and
 * GET /templates/{id}. Run as its own process: DATABASE_URL, PORT; prints nothing.
 */
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

/** The rows of templates and template_images (src/db/migrations): jsonb columns come parsed. */
interface TemplateRow {
  id: number;
  name: string;
  description: string | null;
  keywords: string | null;
  source: string | null;
  type: string;
  image_count: number;
  created_at: Date;
  updated_at: Date;
  documentation: string | null;
}

interface ImageRow {
  id: number;
  template_id: number;
  category: string | null;
  name: string;
  source: string;
  description: string | null;
  type: string | null;
  expose: string[];
  ports: PortRow[];
  links: { service: string; alias: string }[];
  environment: { variable: string; value?: string | null; required?: boolean | null }[];
  volumes: { host_path?: string | null; container_path: string }[];
  volumes_from: { service: string }[];
  command: string | null;
  restart_policy: string | null;
}

interface PortRow {
  host_interface?: string | null;
  host_port?: number | string | null;
  container_port: number | string;
  proto?: string | null;
}

const port = (p: PortRow) => ({
  host_interface: p.host_interface ?? null,
  host_port: p.host_port ?? null,
  container_port: p.container_port,
  proto: p.proto ?? null,
});

const image = (i: ImageRow) => ({
  id: i.id,
  category: i.category,
  name: i.name,
  source: i.source,
  description: i.description,
  type: i.type,
  expose: i.expose,
  ports: i.ports.map(port),
  links: i.links.map((l) => ({ service: l.service, alias: l.alias })),
  environment: i.environment.map((e) => ({ variable: e.variable, value: e.value ?? '', required: e.required ?? null })),
  volumes: i.volumes.map((v) => ({ host_path: v.host_path ?? null, container_path: v.container_path })),
  volumes_from: i.volumes_from.map((v) => ({ service: v.service })),
  command: i.command,
  restart_policy: i.restart_policy,
});

async function templates(id?: number) {
  const rows =
    id === undefined
      ? (await pool.query<TemplateRow>('select * from templates order by id')).rows
      : (await pool.query<TemplateRow>('select * from templates where id = $1', [id])).rows;
  if (rows.length === 0) return [];
  const images = (
    await pool.query<ImageRow>('select * from template_images where template_id = any($1) order by template_id, position', [
      rows.map((r) => r.id),
    ])
  ).rows;
  const byTemplate = new Map<number, ImageRow[]>();
  for (const i of images) byTemplate.set(i.template_id, [...(byTemplate.get(i.template_id) ?? []), i]);
  return rows.map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    keywords: t.keywords,
    source: t.source,
    type: t.type,
    image_count: t.image_count,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
    documentation: t.documentation,
    images: (byTemplate.get(t.id) ?? []).map(image),
  }));
}

async function authorized(req: IncomingMessage): Promise<boolean> {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (!token) return false;
  const digest = createHash('sha256').update(token).digest('hex');
  const { rows } = await pool.query('select id, username, email, scopes from api_tokens where digest = $1 and revoked_at is null', [
    digest,
  ]);
  return rows.length === 1;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  const one = /^\/templates\/(\d+)$/.exec(path);
  const route = async (): Promise<void> => {
    if (path === '/healthz') return send(res, 200, { status: 'ok' });
    if (path !== '/templates' && !one) return send(res, 404, { code: 404 });
    if (!(await authorized(req))) return send(res, 401, { code: 401 });
    if (!one) return send(res, 200, await templates());
    const [t] = await templates(Number(one[1]));
    return t ? send(res, 200, t) : send(res, 404, { code: 404 });
  };
  const work = route();
  work.catch((error: unknown) => send(res, 500, { code: 500, message: String(error) }));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void pool.end().then(() => process.exit(0));
});
