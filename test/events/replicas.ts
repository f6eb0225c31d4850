import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createApp, type App } from '../../src/app';
import { parseConfig } from '../../src/config';
import type { EventsOptions } from '../../src/events/events';
import { createLogger } from '../../src/logger';
import { ADMIN_TOKEN } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

export interface Replica {
  app: App;
  url: string;
  server: Server;
}

export interface Replicas {
  db: TestDatabase;
  replicas: Replica[];
  close(): Promise<void>;
}

/**
 * `count` instances of the service on ONE fresh database, each with its own data dir and port,
 * as replicas behind a load balancer would run: they share SECRET_KEY (targets' tokens sealed by
 * one are opened by another) and nothing else.
 */
export async function startReplicas(count: number, events: EventsOptions = {}, env: Record<string, string> = {}): Promise<Replicas> {
  const db = await createTestDatabase('events');
  const secretKey = randomBytes(32).toString('hex');
  const replicas: Replica[] = [];
  const dataDirs: string[] = [];
  // One after another: the first applies the migrations.
  for (let i = 0; i < count; i++) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), `platform-replica-${i}-`));
    dataDirs.push(dataDir);
    const config = parseConfig({
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      SECRET_KEY: secretKey,
      LOG_LEVEL: 'silent',
      TEMPLATE_REPO_ROOTS: os.tmpdir(),
      ...env,
    });
    const app = await createApp(config, {
      log: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', `replica-${i}`),
      announce: () => undefined,
      events,
    });
    const server = createServer(app.handler);
    app.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    replicas.push({ app, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  }
  return {
    db,
    replicas,
    async close() {
      for (const { app, server } of replicas) {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        await app.closeStreams();
        server.closeAllConnections();
        await closed;
        await app.close();
      }
      await db.drop();
      await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}
