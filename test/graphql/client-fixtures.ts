import type { ServerResponse } from 'node:http';
import { startAgent, startFakeAdapter, type RecordedCall, type RunningAgent } from '../agent/agent-harness';
import { image, seedTemplate } from '../apps/fixtures';
import { ADMIN_TOKEN, startTestApp, type GraphQLBody, type TestApp } from '../helpers/app';
import type { Identified, Named } from '../helpers/bodies';

/**
 * The data that corrupted normalized client caches while ids were integers:
 * - two targets, each with deployment 1 on its agent (real agents over HTTPS; their `http` adapter
 *   talks to a recording server that stands for an external orchestrator, which cannot run here),
 *   whose orchestrator service ids repeat too (`web-svc-1` on both);
 * - an app whose services share its categories at other positions than the app's;
 * - two services linking to one service under different aliases.
 * The app's engine is a socket where nothing listens: identities do not need containers, and the
 * services then answer null states with the engine's error, which is data like any other.
 */
export interface ClientFixture {
  t: TestApp;
  targets: {
    id: number;
    name: string;
    agent: RunningAgent;
    adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
    actualState: { value: string };
  }[];
  appId: number;
  /** POSTs a query as any client would and answers the response body. */
  query<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Promise<GraphQLBody<T>>;
  /** fetch with the admin token, for the clients' links. */
  fetch: typeof fetch;
  close(): Promise<void>;
}

export async function startClientFixture(env: Record<string, string> = {}): Promise<ClientFixture> {
  const t = await startTestApp({ DOCKER_HOST: 'unix:///tmp/platform-no-engine-here.sock', ...env });
  const targets: ClientFixture['targets'] = [];
  try {
    for (const name of ['east', 'west']) {
      const actualState = { value: 'running 2/2' };
      const adapter = await startFakeAdapter((call: RecordedCall, res: ServerResponse) => {
        if (call.method !== 'GET' || !call.path.startsWith('/v1/services/')) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: decodeURIComponent(call.path.slice(13)), actualState: actualState.value }));
        return true;
      });
      const agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
      const created = await t.request<Identified>('POST', '/deployment_targets', { body: { name, auth_blob: agent.token } });
      if (created.status !== 200) throw new Error(`target ${name}: ${created.text}`);
      targets.push({ id: created.body.id, name, agent, adapter, actualState });
    }
    // Same image names, other templates: deployment 1 on each agent, with services web-svc-1 and db-svc-2 on both.
    for (const [i, target] of targets.entries()) {
      const templateId = await seedTemplate(t, {
        name: i === 0 ? 'Blog' : 'Shop',
        images: [image({ name: 'web' }), image({ name: 'db' })],
      });
      const deployed = await t.request<Identified>('POST', `/deployment_targets/${target.id}/deployments`, {
        body: { template_id: templateId },
      });
      if (deployed.status !== 200 || deployed.body.id !== 1) throw new Error(`deployment on ${target.name}: ${deployed.text}`);
    }

    const appTemplate = await seedTemplate(t, {
      name: 'Site',
      images: [
        image({ name: 'web', category: 'Web', links: [{ service: 'db', alias: 'mysql' }] }),
        image({ name: 'worker', category: 'Web', links: [{ service: 'db', alias: 'database' }] }),
        image({ name: 'db', category: 'DB' }),
      ],
    });
    const app = await t.request<Identified & { categories: Named[] }>('POST', `/apps?template_id=${appTemplate}`);
    if (app.status !== 200) throw new Error(`app: ${app.text}`);
    // The app has Web at 0 and DB at 1; the web service puts Web at 5, db puts DB at 0.
    const web = (await t.request<Named[]>('GET', `/apps/${app.body.id}/services`)).body.find((s) => s.name.startsWith('web'));
    const webCategory = app.body.categories.find((c) => c.name === 'Web');
    if (!web || !webCategory) throw new Error('app: no web service or Web category');
    const updated = await t.request('PUT', `/apps/${app.body.id}/services/${web.id}`, {
      body: { categories: [{ id: webCategory.id, position: 5 }], restart: false },
    });
    if (updated.status !== 204 && updated.status !== 200) throw new Error(`service update: ${updated.text}`);

    const authorizedFetch: typeof fetch = (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), authorization: `Bearer ${ADMIN_TOKEN}` },
      });
    return {
      t,
      targets,
      appId: app.body.id,
      fetch: authorizedFetch,
      async query<T>(query: string, variables: Record<string, unknown> = {}) {
        return (await t.graphql<T>(query, variables)).body;
      },
      async close() {
        await t.close();
        for (const target of targets) {
          await target.agent.close();
          await target.adapter.close();
        }
      },
    };
  } catch (error) {
    await t.close();
    for (const target of targets) {
      await target.agent.close();
      await target.adapter.close();
    }
    throw error;
  }
}
