import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { request as undiciRequest } from 'undici';
import { createApp, type App } from '../../src/app';
import type { EventsOptions } from '../../src/events/events';
import { parseConfig, type Config } from '../../src/config';
import { answerClientErrorsAsJson } from '../../src/net/client-errors';
import { createLogger, type Logger } from '../../src/logger';
import { createTestDatabase, type TestDatabase } from './db';
import { contract } from './openapi-contract';

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

/**
 * A response as the tests read it. `body` is the parsed JSON (or the text when it is not JSON),
 * typed as the caller declares: `unknown` unless the test names the shape it reads (the interfaces
 * in ./bodies), and `expect(...).toEqual` checks the shape itself.
 */
export interface TestResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

/** A GraphQL-over-HTTP result: `data` as the test's query selects it, and the errors. */
export interface GraphQLBody<T> {
  data: T;
  errors?: GraphQLErrorBody[];
}

export interface GraphQLErrorBody {
  message: string;
  path?: (string | number)[];
  locations?: { line: number; column: number }[];
  extensions?: { code?: string; http?: { status?: number }; [key: string]: unknown };
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON). */
  raw?: string;
  /** A bearer token; the admin token by default, null for none. */
  token?: string | null;
  headers?: Record<string, string>;
}

export interface TestApp {
  app: App;
  url: string;
  /** The legacy UI listener's URL, when LEGACY_UI_PORT was given (it listens on a free port). */
  legacyUrl?: string;
  config: Config;
  dataDir: string;
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  graphql<T = unknown>(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<TestResponse<GraphQLBody<T>>>;
  close(): Promise<void>;
}

/** The real service on a fresh database and data dir, listening on a free loopback port. */
export async function startTestApp(
  env: Record<string, string> = {},
  options: { log?: Logger; events?: EventsOptions } = {},
): Promise<TestApp> {
  const db: TestDatabase = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'platform-test-data-'));
  // Test template repos are made in the temp directory: the operator's root for these tests.
  const config = parseConfig({
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    TEMPLATE_REPO_ROOTS: os.tmpdir(),
    // Compiled queries answer leaves unserialized: every query of the suite checks them against their types.
    GRAPHQL_CHECK_LEAVES: 'true',
    ...env,
  });
  const log = options.log ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const app = await createApp(config, { log, announce: () => undefined, events: options.events });
  const server: Server = createServer(app.handler);
  app.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const legacyServer = app.legacyHandler ? createServer(app.legacyHandler) : undefined;
  if (legacyServer) {
    answerClientErrorsAsJson(legacyServer);
    await new Promise<void>((resolve) => legacyServer.listen(0, '127.0.0.1', resolve));
  }
  const legacyUrl = legacyServer ? `http://127.0.0.1:${(legacyServer.address() as AddressInfo).port}` : undefined;

  const request = async <T = unknown>(method: string, target: string, options: RequestOptions = {}): Promise<TestResponse<T>> => {
    const token = options.token === undefined ? ADMIN_TOKEN : options.token;
    const headers: Record<string, string> = { ...options.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined = options.raw;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await undiciRequest(`${url}${target}`, { method, headers, body });
    const text = await response.body.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    // Every REST answer a test gets must keep the OpenAPI contract (rest/openapi.json): the REST
    // suite's calls are its contract test.
    const broken = contract().check({ method, target, status: response.statusCode, body: text ? parsed : undefined });
    if (broken) throw new Error(`REST contract: ${broken}`);
    // The body is what the server sent; the caller declares the shape it reads and asserts it.
    return { status: response.statusCode, headers: response.headers, body: parsed as T, text };
  };

  return {
    app,
    url,
    legacyUrl,
    config,
    dataDir,
    request,
    graphql: <T = unknown>(query: string, variables: Record<string, unknown> = {}, token?: string | null) =>
      request<GraphQLBody<T>>('POST', '/graphql', { body: { query, variables }, token }),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const legacyClosed = legacyServer ? new Promise<void>((resolve) => legacyServer.close(() => resolve())) : undefined;
      legacyServer?.closeAllConnections();
      await app.closeStreams();
      await legacyClosed;
      await closed;
      await app.close();
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
