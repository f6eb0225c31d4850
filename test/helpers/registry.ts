import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash, createPrivateKey, randomBytes, sign } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/net/free-port';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';

/**
 * A real image registry for tests: the CNCF distribution registry v2 from Debian's
 * `docker-registry` package, on a free loopback port, with its storage in a temp dir.
 *
 *   const registry = await startRegistry({ auth: 'basic' });
 *   await registry.push('team/web', 'v1');
 *   ... registry.url, registry.credentials ...
 *   await registry.stop();
 *
 * auth 'basic' writes an htpasswd file (bcrypt, made by `htpasswd` from apache2-utils: the
 * registry accepts bcrypt only). auth 'token' also starts a token server (below) that issues
 * ES256 JWTs whose signing certificate (made by the `openssl` CLI) is the registry's `rootcertbundle`.
 */
export const REGISTRY_BINARY = '/usr/bin/docker-registry';

export type RegistryAuthMode = 'none' | 'basic' | 'token';

export interface StartRegistryOptions {
  auth?: RegistryAuthMode;
  username?: string;
  password?: string;
  /** Token auth: a refresh (identity) token the token server also accepts (OAuth2 POST). */
  refreshToken?: string;
  /**
   * Notification endpoints (distribution's `notifications.endpoints`): the registry POSTs its
   * event envelopes there, with these headers, as it does for a real deployment's webhooks.
   */
  notifications?: { name: string; url: string; headers?: Record<string, string> }[];
  /** The port to listen on (a free one by default): for configs that must name the registry before it runs. */
  port?: number;
}

export interface TokenRequest {
  method: string;
  scopes: string[];
  /** The credentials were good (else the server answered 401). */
  granted: boolean;
}

export interface TestRegistry {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `127.0.0.1:<port>`, the image prefix of this registry. */
  host: string;
  auth: RegistryAuthMode;
  credentials?: { username: string; password: string };
  /** Token auth: every request the token server got, in order. */
  tokenRequests: TokenRequest[];
  /** Pushes a tiny image (one config blob, one layer) as `name:tag`; returns the manifest digest. */
  push(name: string, tag?: string): Promise<string>;
  stop(): Promise<void>;
}

/** Whether this machine can run the registry; CI (CI=true or REQUIRE_REGISTRY=1) must. */
export function registryAvailable(): boolean {
  const found = existsSync(REGISTRY_BINARY);
  if (!found && (process.env.CI === 'true' || process.env.REQUIRE_REGISTRY === '1')) {
    throw new Error(`${REGISTRY_BINARY} is missing: install the Debian package docker-registry`);
  }
  return found;
}

const running = new Set<ChildProcess>();
process.once('exit', () => running.forEach((child) => child.kill('SIGKILL')));

export async function startRegistry(options: StartRegistryOptions = {}): Promise<TestRegistry> {
  const auth = options.auth ?? 'none';
  const credentials = auth === 'none' ? undefined : { username: options.username ?? 'tester', password: options.password ?? 's3cret-pass' };
  const dir = await mkdtemp(join(tmpdir(), 'registry-'));
  const tokenRequests: TokenRequest[] = [];
  let issuer: TokenIssuer | undefined;
  let tokenServer: Server | undefined;
  try {
    let authConfig = '';
    if (auth === 'basic') {
      const line = execFileSync('htpasswd', ['-nbB', credentials!.username, credentials!.password], { encoding: 'utf8' });
      await writeFile(join(dir, 'htpasswd'), line.trim() + '\n');
      authConfig = `auth:\n  htpasswd:\n    realm: test-realm\n    path: ${join(dir, 'htpasswd')}\n`;
    } else if (auth === 'token') {
      issuer = await createTokenIssuer(dir);
      tokenServer = await startTokenServer(issuer, credentials!, options.refreshToken, tokenRequests);
      const realm = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`;
      authConfig = `auth:\n  token:\n    realm: ${realm}\n    service: ${issuer.service}\n    issuer: ${issuer.name}\n    rootcertbundle: ${join(dir, 'token-cert.pem')}\n`;
    }
    const { child, port } = await launch(dir, authConfig + notificationsConfig(options.notifications ?? []), options.port);
    const url = `http://127.0.0.1:${port}`;
    const pushAuth = (name: string): string | undefined =>
      auth === 'basic'
        ? `Basic ${Buffer.from(`${credentials!.username}:${credentials!.password}`).toString('base64')}`
        : issuer && `Bearer ${issuer.issue(credentials!.username, [`repository:${name}:pull,push`])}`;
    return {
      url,
      host: `127.0.0.1:${port}`,
      auth,
      credentials,
      tokenRequests,
      push: (name, tag = 'latest') => pushImage(url, name, tag, pushAuth(name)),
      stop: async () => {
        await stopChild(child);
        await new Promise((resolve) => (tokenServer ? tokenServer.close(resolve) : resolve(undefined)));
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    tokenServer?.close();
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

function notificationsConfig(endpoints: NonNullable<StartRegistryOptions['notifications']>): string {
  if (endpoints.length === 0) return '';
  const lines = ['notifications:', '  endpoints:'];
  for (const endpoint of endpoints) {
    lines.push(
      `    - name: ${endpoint.name}`,
      `      url: ${endpoint.url}`,
      '      timeout: 5s',
      '      threshold: 5',
      '      backoff: 1s',
    );
    const headers = Object.entries(endpoint.headers ?? {});
    if (headers.length) {
      lines.push('      headers:');
      for (const [name, value] of headers) lines.push(`        ${name}: [${JSON.stringify(value)}]`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Writes the config and starts the registry; a port taken meanwhile by someone else is retried. */
async function launch(dir: string, authConfig: string, fixedPort?: number): Promise<{ child: ChildProcess; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await freePort());
    const config = [
      'version: 0.1',
      'log:\n  level: warn\n  accesslog:\n    disabled: true',
      `storage:\n  filesystem:\n    rootdirectory: ${join(dir, 'data')}\n  delete:\n    enabled: true`,
      `http:\n  addr: 127.0.0.1:${port}\n  secret: ${randomBytes(16).toString('hex')}`,
      authConfig,
    ].join('\n');
    await writeFile(join(dir, 'config.yml'), config);
    const child = spawn(REGISTRY_BINARY, ['serve', join(dir, 'config.yml')], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    child.once('exit', () => running.delete(child));
    let output = '';
    const keep = (chunk: Buffer): void => void (output = (output + chunk.toString()).slice(-8000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    if (await answers(`http://127.0.0.1:${port}/v2/`, child)) return { child, port };
    await stopChild(child);
    if (attempt >= 3 || !/address already in use/.test(output)) {
      throw new Error(`docker-registry did not start on port ${port}:\n${output}`);
    }
  }
}

async function answers(url: string, child: ChildProcess): Promise<boolean> {
  const until = Date.now() + 15_000;
  while (Date.now() < until && child.exitCode === null && child.signalCode === null) {
    try {
      const { statusCode, body } = await request(url, { headersTimeout: 1000 });
      await body.dump();
      if (statusCode === 200 || statusCode === 401) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

interface TokenIssuer {
  name: string;
  service: string;
  certPem: string;
  issue(subject: string, scopes: string[]): string;
}

/**
 * JWTs as distribution 2.8 checks them (registry/auth/token): `iss` and `aud` (a string) equal
 * to its config, `exp`/`nbf`, an `access` list of {type, name, actions}, and the signing key
 * found through `x5c`, whose certificate must verify against `rootcertbundle`. ES256 signatures
 * are JOSE's raw r||s, not DER.
 */
async function createTokenIssuer(dir: string): Promise<TokenIssuer> {
  const [keyPath, certPath] = [join(dir, 'token-key.pem'), join(dir, 'token-cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '1',
      '-subj',
      '/CN=test-token-issuer',
    ],
    { stdio: 'pipe' },
  );
  const [keyPem, certPem] = await Promise.all([readFile(keyPath, 'utf8'), readFile(certPath, 'utf8')]);
  const key = createPrivateKey(keyPem);
  const certDer = certPem.replace(/-----[^-]+-----|\s/g, '');
  const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const issuer = { name: 'test-token-issuer', service: 'test-registry', certPem };
  return {
    ...issuer,
    issue(subject, scopes) {
      const now = Math.floor(Date.now() / 1000);
      const access = scopes.map((scope) => {
        const [type, ...rest] = scope.split(':');
        const actions = rest.pop() ?? '';
        return { type, name: rest.join(':'), actions: actions.split(',').filter(Boolean) };
      });
      const claims = {
        iss: issuer.name,
        sub: subject,
        aud: issuer.service,
        exp: now + 300,
        nbf: now - 10,
        iat: now,
        jti: randomBytes(8).toString('hex'),
        access,
      };
      const input = `${encode({ typ: 'JWT', alg: 'ES256', x5c: [certDer] })}.${encode(claims)}`;
      const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
      return `${input}.${signature.toString('base64url')}`;
    },
  };
}

/** The token endpoint: Basic credentials on GET, or the refresh token on an OAuth2 POST. */
async function startTokenServer(
  issuer: TokenIssuer,
  credentials: { username: string; password: string },
  refreshToken: string | undefined,
  log: TokenRequest[],
): Promise<Server> {
  const expected = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const form = new URLSearchParams(req.method === 'POST' ? body : '');
      const scopes = req.method === 'POST' ? (form.get('scope') ?? '').split(' ').filter(Boolean) : url.searchParams.getAll('scope');
      const granted =
        url.pathname === '/token' &&
        (req.method === 'POST'
          ? !!refreshToken && form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === refreshToken
          : req.headers.authorization === expected);
      log.push({ method: req.method ?? 'GET', scopes, granted });
      if (!granted) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"details":"bad credentials"}');
        return;
      }
      const token = issuer.issue(credentials.username, scopes);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ token, access_token: token, expires_in: 300, issued_at: new Date().toISOString() }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** A docker v2 schema2 image pushed through the blob upload and manifest API, without docker. */
async function pushImage(base: string, name: string, tag: string, authorization: string | undefined): Promise<string> {
  const headers: Record<string, string> = authorization ? { authorization } : {};
  const tar = tarOf('hello.txt', `${name}:${tag}\n`);
  const layer = gzipSync(tar);
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      config: { Cmd: ['/bin/sh'] },
      rootfs: { type: 'layers', diff_ids: [digestOf(tar)] },
    }),
  );
  for (const blob of [config, layer]) {
    const started = await request(`${base}/v2/${name}/blobs/uploads/`, { method: 'POST', headers });
    await expectStatus(started, 202, `start upload to ${name}`);
    const location = new URL(String(started.headers.location), base);
    location.searchParams.set('digest', digestOf(blob));
    const put = await request(location, { method: 'PUT', headers: { ...headers, 'content-type': 'application/octet-stream' }, body: blob });
    await expectStatus(put, 201, `upload blob to ${name}`);
  }
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
      config: { mediaType: 'application/vnd.docker.container.image.v1+json', size: config.length, digest: digestOf(config) },
      layers: [{ mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip', size: layer.length, digest: digestOf(layer) }],
    }),
  );
  const put = await request(`${base}/v2/${name}/manifests/${tag}`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/vnd.docker.distribution.manifest.v2+json' },
    body: manifest,
  });
  await expectStatus(put, 201, `put manifest ${name}:${tag}`);
  return digestOf(manifest);
}

async function expectStatus(response: Awaited<ReturnType<typeof request>>, status: number, what: string): Promise<void> {
  const text = await response.body.text();
  if (response.statusCode !== status) throw new Error(`${what}: ${response.statusCode} ${text}`);
}

const digestOf = (data: Buffer): string => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** A ustar archive of one regular file. */
function tarOf(path: string, content: string): Buffer {
  const data = Buffer.from(content);
  const header = Buffer.alloc(512);
  const field = (offset: number, length: number, value: string): void => void header.write(value, offset, length, 'ascii');
  field(0, 100, path);
  field(100, 8, '0000644\0');
  field(108, 8, '0000000\0');
  field(116, 8, '0000000\0');
  field(124, 12, `${data.length.toString(8).padStart(11, '0')}\0`);
  field(
    136,
    12,
    `${Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
  );
  field(148, 8, '        ');
  field(156, 1, '0');
  field(257, 8, 'ustar\x0000');
  const sum = header.reduce((total, byte) => total + byte, 0);
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([header, data, padding, Buffer.alloc(1024)]);
}
