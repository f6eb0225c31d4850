import { expect } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { App, AppCategory, Service, ServiceLink, SharedVolume } from '../../src/apps/app.entity';
import { startCountingAgent, startFakeAdapter } from '../agent/agent-harness';
import { makeGitRepo, pmx } from '../helpers/git';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified, Named } from '../helpers/bodies';

interface ServiceNode {
  databaseId: number;
}
interface AppNode {
  databaseId: number;
  services: ServiceNode[];
}
interface Apps {
  apps: AppNode[];
}
interface AppsPage {
  appsConnection: { totalCount: number; nodes: AppNode[] };
}
interface Repos {
  templateRepos: { loadErrors: { file: string }[]; templates: { images: unknown[] }[] }[];
}
interface TemplatesPage {
  templatesConnection: { totalCount: number };
}
interface TargetsPage {
  deploymentTargetsConnection: { nodes: { deployments: { status: { services: unknown[] } }[] }[] };
}

/**
 * N+1 guards: a nested query over N and 2N items must cost the same number of SQL queries, one
 * engine call, and one agent request per target and key. SQL is counted at the `pg` driver
 * (MikroORM → knex → pg.Client#query, in this process); the engine is a stand-in on a unix
 * socket that counts its requests (no containers are needed for states); the agents are real,
 * in-process, over the fake http adapter (an external orchestrator cannot run here).
 */
describe('batching: SQL queries, engine calls and agent requests do not grow with the items', () => {
  let t: TestApp;
  let engine: { socket: string; requests: string[]; close(): Promise<void> };
  const sql: string[] = [];
  let counting = false;
  // Kept to be restored and called with its own `this` (apply below), never detached.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const originalQuery = Client.prototype.query;

  beforeAll(async () => {
    engine = await startCountingEngine();
    t = await startTestApp({ DOCKER_HOST: `unix://${engine.socket}` });
    // Test-only: every statement on the service's database while `counting` (the in-process
    // agents have databases of their own), except the event bus's (LISTEN/NOTIFY, advisory
    // locks), which runs on its own schedule.
    const database = new URL(t.config.databaseUrl!).pathname.slice(1);
    Client.prototype.query = function (this: Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string } | undefined)?.text ?? '');
      // The job queue's polling (pgboss.*) and the target health poller run on their own clock, not for a query.
      if (counting && this.database === database && !/listen|notify|advisory|pgboss\.|target_health/i.test(text)) sql.push(text);
      return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof Client.prototype.query;
  });

  afterAll(async () => {
    Client.prototype.query = originalQuery;
    await t?.close();
    await engine?.close();
  });

  /** Runs one GraphQL query and counts what it cost. */
  async function measure<T>(query: string) {
    sql.length = 0;
    engine.requests.length = 0;
    counting = true;
    const res = await t.graphql<T>(query);
    counting = false;
    expect(res.body.errors).toBeUndefined();
    return { data: res.body.data, sql: sql.length, engine: engine.requests.length, statements: [...sql] };
  }

  const APP_FIELDS = `id databaseId name errors { message } categories { name position }
    services {
      id databaseId name loadState activeState subState errors { code } app { databaseId name }
      categories { name position } links { linkedServiceId serviceName alias service { databaseId name } } volumesFrom { service }
    }`;

  test('apps × services: the list and the connection cost the same for 20 and 40 apps', async () => {
    await seedApps(t, 0, 20, 10);
    // Once per process, not per query: the installation's id (the engine label of its containers).
    await measure('{ apps { services { id } } }');
    const list20 = await measure<Apps>(`{ apps { ${APP_FIELDS} } }`);
    const page20 = await measure<AppsPage>(`{ appsConnection(first: 20) { totalCount nodes { ${APP_FIELDS} } } }`);
    expect(list20.data.apps).toHaveLength(20);
    expect(list20.data.apps[3].services).toHaveLength(10);
    // What the seed made is what comes back: links, shared volumes, categories, the app.
    expect(list20.data.apps[3].services[1]).toEqual({
      id: expect.any(String),
      databaseId: expect.any(Number),
      name: 'app3-svc1',
      loadState: 'not-found',
      activeState: 'inactive',
      subState: 'dead',
      errors: null,
      app: { databaseId: list20.data.apps[3].databaseId, name: 'app3' },
      categories: [{ name: 'web', position: 1 }],
      links: [
        {
          linkedServiceId: String(list20.data.apps[3].services[0].databaseId),
          serviceName: 'app3-svc0',
          alias: 'prev',
          service: { databaseId: list20.data.apps[3].services[0].databaseId, name: 'app3-svc0' },
        },
      ],
      volumesFrom: [{ service: 'app3-svc0' }],
    });
    expect(page20.data.appsConnection.nodes).toEqual(list20.data.apps);

    await seedApps(t, 20, 20, 10);
    const list40 = await measure<Apps>(`{ apps { ${APP_FIELDS} } }`);
    const page40 = await measure<AppsPage>(`{ appsConnection(first: 40) { totalCount nodes { ${APP_FIELDS} } } }`);
    expect(list40.data.apps).toHaveLength(40);
    expect(page40.data.appsConnection).toMatchObject({ totalCount: 40 });
    expect(page40.data.appsConnection.nodes).toHaveLength(40);

    expect(list40.sql).toBe(list20.sql);
    expect(page40.sql).toBe(page20.sql);
    // The absolute numbers, so a regression that is constant but large shows too.
    expect(list20.sql).toBeLessThanOrEqual(6);
    expect(page20.sql).toBeLessThanOrEqual(8);
    // Every app's states from one engine call.
    for (const m of [list20, page20, list40, page40]) expect(m.engine).toBe(1);
  });

  test('template repos × templates × images cost the same for 5 and 10 repos', async () => {
    const dirs = Array.from({ length: 10 }, (_, i) =>
      makeGitRepo({
        'a.pmx': pmx(`A${i}`),
        'b.pmx': pmx(`B${i}`),
        'broken.pmx': ':\n  - not: [yaml',
      }),
    );
    try {
      const fields = 'name loadErrors { file } templates { id name images { name source } }';
      for (const dir of dirs.slice(0, 5)) expect((await t.request('POST', '/template_repos', { body: { name: dir } })).status).toBe(200);
      const five = await measure<Repos>(`{ templateRepos { ${fields} } }`);
      const fivePage = await measure<TemplatesPage>(`{ templatesConnection(first: 10) { totalCount nodes { name images { name } } } }`);
      for (const dir of dirs.slice(5)) await t.request('POST', '/template_repos', { body: { name: dir } });
      const ten = await measure<Repos>(`{ templateRepos { ${fields} } }`);
      const tenPage = await measure<TemplatesPage>(`{ templatesConnection(first: 20) { totalCount nodes { name images { name } } } }`);
      expect(ten.data.templateRepos).toHaveLength(10);
      expect(ten.data.templateRepos.map((r) => r.templates.length)).toEqual(Array(10).fill(2));
      expect(ten.data.templateRepos[0].templates[0].images).toHaveLength(2);
      expect(ten.data.templateRepos[0].loadErrors).toEqual([{ file: 'broken.pmx' }]);
      expect(tenPage.data.templatesConnection).toMatchObject({ totalCount: 20 });
      expect(ten.sql).toBe(five.sql);
      expect(tenPage.sql).toBe(fivePage.sql);
    } finally {
      const { rmSync } = await import('node:fs');
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });

  test('targets × deployments with status: the same SQL for 5 and 10 targets, one request per target', async () => {
    const adapter = await startFakeAdapter();
    const agents = await Promise.all(Array.from({ length: 10 }, () => startCountingAgent(adapter.url)));
    try {
      const repo = makeGitRepo({ 'wp.pmx': pmx('WordPress') });
      await t.request('POST', '/template_repos', { body: { name: repo } });
      const templateId = (await t.request<Named[]>('GET', '/templates')).body.find((x) => x.name === 'WordPress')?.id;
      for (const [i, agent] of agents.entries()) {
        const target = await t.request<Identified>('POST', '/deployment_targets', {
          body: { name: `target-${i}`, auth_blob: agent.token },
        });
        expect(target.status).toBe(200);
        for (let d = 0; d < 5; d++) {
          expect(
            (await t.request('POST', `/deployment_targets/${target.body.id}/deployments`, { body: { template_id: templateId } })).status,
          ).toBe(200);
        }
      }
      const query = (n: number) => `{ deploymentTargetsConnection(first: ${n}) { totalCount nodes {
        id databaseId name authBlob metadata { adapterType } deployments { id databaseId name template serviceIds { name } status { services { orchestratorId actualState } } }
      } } }`;
      const atFive = await measureAgents(agents, () => measure<TargetsPage>(query(5)));
      const atTen = await measureAgents(agents, () => measure<TargetsPage>(query(10)));
      expect(atTen.result.data.deploymentTargetsConnection.nodes).toHaveLength(10);
      for (const target of atTen.result.data.deploymentTargetsConnection.nodes) {
        expect(target.deployments).toHaveLength(5);
        expect(target.deployments[0].status.services).toEqual([
          { orchestratorId: expect.any(String), actualState: 'running 2/2' },
          { orchestratorId: expect.any(String), actualState: 'running 2/2' },
        ]);
      }
      expect(atTen.result.sql).toBe(atFive.result.sql);
      expect(atTen.result.sql).toBeLessThanOrEqual(3);
      // One request per target, however many fields ask: the list with its deployments'
      // statuses (test/targets/deployments-with-status.test.ts).
      const expected = ['GET /deployments?include=status'];
      expect(atFive.requests.slice(0, 5).map((r) => r.sort())).toEqual(Array(5).fill(expected));
      expect(atFive.requests.slice(5)).toEqual(Array(5).fill([]));
      expect(atTen.requests.map((r) => r.sort())).toEqual(Array(10).fill(expected));
    } finally {
      await Promise.all(agents.map((a) => a.close()));
      await adapter.close();
    }
  });
});

async function measureAgents<T>(agents: { requests: string[] }[], run: () => Promise<T>) {
  agents.forEach((a) => a.requests.splice(0));
  const result = await run();
  return { result, requests: agents.map((a) => [...a.requests]) };
}

/** Seeds `count` apps of `perApp` services each straight through the ORM (no engine needed). */
async function seedApps(t: TestApp, from: number, count: number, perApp: number): Promise<void> {
  const em = t.app.orm.em.fork();
  for (let a = from; a < from + count; a++) {
    const app = em.create(App, { name: `app${a}`, from: 'seed', documentation: null, errors: [] });
    const category = em.create(AppCategory, { app, name: 'web', position: 0 });
    await em.flush();
    const services: Service[] = [];
    for (let s = 0; s < perApp; s++) {
      const name = `app${a}-svc${s}`;
      services.push(
        em.create(Service, {
          app,
          position: s,
          name,
          internalName: name,
          from: 'busybox:latest',
          description: null,
          type: null,
          command: null,
          ports: [],
          expose: [],
          environment: [],
          volumes: [],
          categories: [{ category_id: category.id, position: 1 }],
          defaultExposedPorts: [],
          lastError: null,
          startingAt: null,
        }),
      );
    }
    for (let s = 1; s < perApp; s++) {
      em.create(ServiceLink, { from: services[s], to: services[s - 1], alias: 'prev' });
      em.create(SharedVolume, { mountedOn: services[s], exportedFrom: services[s - 1] });
    }
    await em.flush();
  }
}

/**
 * Stands for the container engine: answers the container list with no containers (every
 * service `not-found`) and counts every request. The apps domain asks nothing else on a read.
 */
async function startCountingEngine() {
  const dir = await mkdtemp(path.join(tmpdir(), 'engine-'));
  const socket = path.join(dir, 'docker.sock');
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(/\/containers\/json/.test(req.url ?? '') ? '[]' : '{}');
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return {
    socket,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
