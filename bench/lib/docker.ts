import { Agent, request } from 'undici';

/** The local Docker engine's API (the bench's own calls: stop/start a container, find an app's containers, clean up). */
const engine = new Agent({ connect: { socketPath: process.env.DOCKER_SOCKET ?? '/var/run/docker.sock' } });

export async function docker<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await request(`http://docker${path}`, {
    method: method as 'GET',
    dispatcher: engine,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300 && res.statusCode !== 304)
    throw new Error(`docker ${method} ${path}: HTTP ${res.statusCode} ${text.slice(0, 200)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Ids of the containers carrying every label of `labels` (`key=value`). */
export async function containersWith(labels: string[]): Promise<string[]> {
  const filters = encodeURIComponent(JSON.stringify({ label: labels }));
  return (await docker<{ Id: string }[]>('GET', `/containers/json?all=1&filters=${filters}`)).map((c) => c.Id);
}

/** Removes containers and networks carrying `label` (the bench's fallback when a service could not delete its apps). */
export async function removeLabelled(label: string): Promise<void> {
  for (const id of await containersWith([label])) await docker('DELETE', `/containers/${id}?force=1&v=1`).catch(() => undefined);
  const filters = encodeURIComponent(JSON.stringify({ label: [label] }));
  for (const n of await docker<{ Id: string }[]>('GET', `/networks?filters=${filters}`).catch(() => []))
    await docker('DELETE', `/networks/${n.Id}`).catch(() => undefined);
}

export async function imagePresent(image: string): Promise<string | null> {
  try {
    await docker('GET', `/images/${image}/json`);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
