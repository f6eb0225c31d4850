import { request } from 'undici';
import { BENCH_TOKEN } from './service';

const auth = { authorization: `Bearer ${BENCH_TOKEN}` };

/** GET with the bench's admin token; the body is read to its end (parsed when `json`, else its length in bytes). */
export async function get(url: string, json = false): Promise<unknown> {
  const res = await request(url, { headers: auth, headersTimeout: 300_000, bodyTimeout: 300_000 });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: HTTP ${res.statusCode} ${(await res.body.text()).slice(0, 300)}`);
  if (json) return res.body.json();
  // Read to the end (dump() stops after 128 KB and cuts the connection, whatever its limit says).
  let bytes = 0;
  for await (const chunk of res.body) bytes += (chunk as Buffer).length;
  return bytes;
}

/** POST /graphql; throws on an HTTP error or a GraphQL error, returns `data`. */
export async function graphql<T = Record<string, unknown>>(
  base: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const res = await request(`${base}/graphql`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
    headersTimeout: 300_000,
    bodyTimeout: 300_000,
  });
  const body = (await res.body.json()) as { data?: T; errors?: unknown };
  if (res.statusCode !== 200 || body.errors || !body.data)
    throw new Error(`POST /graphql: HTTP ${res.statusCode} ${JSON.stringify(body).slice(0, 300)}`);
  return body.data;
}

/** A JSON request with the admin token; the status must be `expect`. */
export async function send(method: string, url: string, body?: unknown, expect = 200): Promise<unknown> {
  const res = await request(url, {
    method: method as 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    headersTimeout: 300_000,
    bodyTimeout: 300_000,
  });
  const text = await res.body.text();
  if (res.statusCode !== expect) throw new Error(`${method} ${url}: HTTP ${res.statusCode} (wanted ${expect}) ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** A Relay cursor of the keyset connections (schema/connection.ts): opaque to clients, but the bench may start a page mid-list. */
export const cursorAfter = (id: number): string => Buffer.from(`id:${id}`).toString('base64url');
