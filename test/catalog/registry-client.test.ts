import { expect } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { MockAgent } from 'undici';
import { imagePrefix, imageReference, searchRegistry } from '../../src/catalog/registry-client';
import type { RegistryImage } from '../../src/catalog/registry-image';
import { UpstreamError, UpstreamTimeoutError } from '../../src/errors';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';
import { freePort } from '../../src/net/free-port';

// Searches that must succeed (or fail for another reason) get a timeout no loaded machine reaches:
// a timeout is only what ends them when it is the subject (the silent endpoint below).
const PATIENT_MS = 30_000;

const describeRegistry = registryAvailable() ? describe : describe.skip;
if (!registryAvailable()) console.warn('docker-registry is not installed: real-registry tests skipped');

const image = (name: string, tags: string[]): RegistryImage => ({
  name,
  tags,
  description: null,
  isOfficial: null,
  isTrusted: null,
  starCount: null,
});

describeRegistry('searchRegistry against a real v2 registry without auth', () => {
  let registry: TestRegistry;
  beforeAll(async () => {
    registry = await startRegistry();
    await registry.push('team/web', 'v1');
    await registry.push('team/web', 'v2');
    await registry.push('team/api', 'latest');
    await registry.push('db', 'latest');
  });
  afterAll(() => registry?.stop());
  const target = () => ({ id: 1, name: 'local', endpointUrl: registry.url });

  test('matching repositories come with their tags, in catalog order, any term matching', async () => {
    expect(await searchRegistry(target(), ['WEB'], { timeoutMs: PATIENT_MS })).toEqual([image('team/web', ['v1', 'v2'])]);
    expect(await searchRegistry(target(), ['web', 'DB'], { timeoutMs: PATIENT_MS })).toEqual([
      image('db', ['latest']),
      image('team/web', ['v1', 'v2']),
    ]);
  });

  test('limit caps the images', async () => {
    expect(await searchRegistry(target(), ['team'], { timeoutMs: PATIENT_MS, limit: 1 })).toEqual([image('team/api', ['latest'])]);
  });

  test('no match, or no terms, gives an empty list', async () => {
    expect(await searchRegistry(target(), ['nothing-like-it'], { timeoutMs: PATIENT_MS })).toEqual([]);
    expect(await searchRegistry(target(), [' '], { timeoutMs: PATIENT_MS })).toEqual([]);
  });
});

describeRegistry('catalog pagination', () => {
  let registry: TestRegistry;
  beforeAll(async () => {
    registry = await startRegistry();
    // 105 repositories: the client asks for pages of 100, so repo-100..104 are on the second page.
    for (let i = 0; i < 105; i++) await registry.push(`repo-${String(i).padStart(3, '0')}`);
  });
  afterAll(() => registry?.stop());

  test('follows Link rel="next" to later pages', async () => {
    const found = await searchRegistry({ id: 1, name: 'big', endpointUrl: registry.url }, ['repo-10'], { timeoutMs: PATIENT_MS });
    expect(found).toEqual(['repo-100', 'repo-101', 'repo-102', 'repo-103', 'repo-104'].map((name) => image(name, ['latest'])));
  });
});

describeRegistry('a registry with htpasswd Basic auth', () => {
  let registry: TestRegistry;
  beforeAll(async () => {
    registry = await startRegistry({ auth: 'basic', username: 'alice', password: 'basic-pa55' });
    await registry.push('private/app', '1.0');
  });
  afterAll(() => registry?.stop());

  test('the right credentials find the images', async () => {
    const target = { id: 2, name: 'basic-reg', endpointUrl: registry.url, credentials: registry.credentials };
    expect(await searchRegistry(target, ['app'], { timeoutMs: PATIENT_MS })).toEqual([image('private/app', ['1.0'])]);
  });

  test('wrong credentials give a clean 502 naming the registry, not the password', async () => {
    const target = { id: 2, name: 'basic-reg', endpointUrl: registry.url, credentials: { username: 'alice', password: 'wrong-pa55' } };
    const error = await searchRegistry(target, ['app'], { timeoutMs: PATIENT_MS }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ httpStatus: 502, message: 'Registry "basic-reg": authentication failed (401 from GET /v2/)' });
    expect((error as Error).message).not.toContain('wrong-pa55');
  });
});

describeRegistry('a registry with token auth (a local token server issuing JWTs)', () => {
  let registry: TestRegistry;
  beforeAll(async () => {
    registry = await startRegistry({ auth: 'token', username: 'bob', password: 'token-pa55', refreshToken: 'refresh-123' });
    await registry.push('acme/web', 'stable');
    await registry.push('acme/webhooks', 'v3');
  });
  afterAll(() => registry?.stop());
  beforeEach(() => registry.tokenRequests.splice(0));

  test('Basic credentials at the realm get one token per scope', async () => {
    const target = { id: 3, name: 'token-reg', endpointUrl: registry.url, credentials: registry.credentials };
    expect(await searchRegistry(target, ['web'], { timeoutMs: PATIENT_MS })).toEqual([
      image('acme/web', ['stable']),
      image('acme/webhooks', ['v3']),
    ]);
    expect(registry.tokenRequests).toEqual([
      { method: 'GET', scopes: [], granted: true },
      { method: 'GET', scopes: ['registry:catalog:*'], granted: true },
      expect.objectContaining({ method: 'GET', granted: true }),
      expect.objectContaining({ method: 'GET', granted: true }),
    ]);
    expect(
      registry.tokenRequests
        .slice(2)
        .map((r) => r.scopes[0])
        .sort(),
    ).toEqual(['repository:acme/web:pull', 'repository:acme/webhooks:pull']);
  });

  test('a stored token alone is exchanged as a refresh token', async () => {
    const target = { id: 3, name: 'token-reg', endpointUrl: registry.url, credentials: { token: 'refresh-123' } };
    expect(await searchRegistry(target, ['hooks'], { timeoutMs: PATIENT_MS })).toEqual([image('acme/webhooks', ['v3'])]);
    expect(registry.tokenRequests.every((r) => r.method === 'POST' && r.granted)).toBe(true);
  });

  test('credentials the token server refuses give a 502', async () => {
    const target = { id: 3, name: 'token-reg', endpointUrl: registry.url, credentials: { username: 'bob', password: 'nope' } };
    await expect(searchRegistry(target, ['web'], { timeoutMs: PATIENT_MS })).rejects.toMatchObject({
      httpStatus: 502,
      message: 'Registry "token-reg": the token service refused the credentials (401)',
    });
  });
});

describe('failures of the endpoint itself', () => {
  test('a closed port is a 502 naming the registry and the cause', async () => {
    const port = await freePort();
    const error = await searchRegistry({ id: 4, name: 'gone', endpointUrl: `http://127.0.0.1:${port}` }, ['x'], {
      timeoutMs: PATIENT_MS,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toMatch(/^Registry "gone": cannot be reached \(.*ECONNREFUSED/);
  });

  test('an endpoint that accepts and never answers is a 504 at the timeout, and the request is given up', async () => {
    const sockets = new Set<Socket>();
    const requestLines: string[] = [];
    const closed: Promise<unknown>[] = [];
    const silent = createNetServer((socket) => {
      sockets.add(socket);
      // Read what comes (a socket nobody reads never sees the client's end).
      socket.once('data', (data) => requestLines.push(String(data).split('\r\n')[0]));
      closed.push(new Promise((resolve) => socket.once('close', resolve)));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      // Nothing but the 400 ms timeout ends this search (the test's own timeout is the safety net).
      const error = await searchRegistry({ id: 5, name: 'silent', endpointUrl: url }, ['x'], { timeoutMs: 400 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamTimeoutError);
      expect(error).toMatchObject({ httpStatus: 504, message: 'Registry "silent": no answer within 400 ms' });
      // The request reached the endpoint, and the client then closed that connection: it gave
      // up on the request rather than leaving it open.
      expect(requestLines[0]).toBe('GET /v2/ HTTP/1.1');
      await closed[0];
    } finally {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

/**
 * A fake v1 index: no v1 registry runs here (Docker Hub is unreachable from these machines), so
 * this local server answers `/v1/search` the way index.docker.io does.
 */
describe('v1 search (fake v1 index)', () => {
  const requests: string[] = [];
  let v2Catalog = 404;
  let server: Server;
  let url: string;
  const repos = [
    {
      name: 'library/wordpress',
      description: 'The WordPress rich content management system',
      star_count: 5000,
      is_official: true,
      is_trusted: false,
    },
    { name: 'tutum/wordpress', description: 'WordPress on Apache', star_count: 80, is_official: false, is_trusted: true },
    { name: 'someone/blog', description: 'wordpress in the description only', star_count: 1, is_official: false, is_trusted: false },
  ];
  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const { pathname, searchParams } = new URL(req.url ?? '/', 'http://localhost');
      requests.push(`${pathname}${searchParams.size ? `?${searchParams}` : ''}`);
      if (pathname === '/v1/search') {
        const q = (searchParams.get('q') ?? '').toLowerCase();
        const results = repos.filter((r) => r.name.includes(q) || r.description.toLowerCase().includes(q));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query: q, num_results: results.length, results }));
      } else if (pathname === '/v2/' && v2Catalog !== 404) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else if (pathname === '/v2/_catalog') {
        res.writeHead(v2Catalog).end();
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => requests.splice(0));

  const expected: RegistryImage[] = [
    {
      name: 'library/wordpress',
      tags: [],
      description: 'The WordPress rich content management system',
      isOfficial: true,
      isTrusted: false,
      starCount: 5000,
    },
    { name: 'tutum/wordpress', tags: [], description: 'WordPress on Apache', isOfficial: false, isTrusted: true, starCount: 80 },
  ];

  test('without a v2 API, v1 search is used; only names containing a term are kept', async () => {
    v2Catalog = 404;
    expect(await searchRegistry({ id: 6, name: 'v1-index', endpointUrl: url }, ['WordPress'], { timeoutMs: PATIENT_MS })).toEqual(expected);
    expect(requests).toEqual(['/v2/', '/v1/search?q=wordpress&n=25']);
  });

  test('a v2 registry whose catalog is forbidden falls back to v1 search', async () => {
    v2Catalog = 403;
    expect(await searchRegistry({ id: 6, name: 'v1-index', endpointUrl: url }, ['wordpress'], { timeoutMs: PATIENT_MS })).toEqual(expected);
    expect(requests).toEqual(['/v2/', '/v2/_catalog?n=100', '/v1/search?q=wordpress&n=25']);
  });

  test('Docker Hub endpoints go straight to v1 search on index.docker.io, without credentials', async () => {
    // Docker Hub itself is unreachable here: undici's MockAgent stands in for it.
    const agent = new MockAgent();
    agent.disableNetConnect();
    const seen: Array<string | undefined> = [];
    agent
      .get('https://index.docker.io')
      .intercept({ path: '/v1/search?q=wordpress&n=25', method: 'GET' })
      .reply(200, (options) => {
        seen.push((options.headers as Record<string, string>).authorization);
        return { results: repos };
      });
    const hub = { id: 0, name: 'Docker Hub', endpointUrl: 'https://registry-1.docker.io/', credentials: { username: 'u', password: 'p' } };
    expect(await searchRegistry(hub, ['wordpress'], { timeoutMs: PATIENT_MS, dispatcher: agent })).toEqual(expected);
    expect(seen).toEqual([undefined]);
    await agent.close();
  });
});

describe('redirects', () => {
  test('credentials are not sent to another host', async () => {
    const authorizations: Array<string | undefined> = [];
    const other = createServer((req, res) => {
      authorizations.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"repositories":[]}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
    const otherUrl = `http://127.0.0.2:${(other.address() as AddressInfo).port}`;
    const origin = createServer((req, res) => {
      if (req.url === '/v2/') res.writeHead(200).end('{}');
      else res.writeHead(307, { location: `${otherUrl}${req.url}` }).end();
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    try {
      const target = {
        id: 7,
        name: 'redirecting',
        endpointUrl: `http://127.0.0.1:${(origin.address() as AddressInfo).port}`,
        credentials: { token: 'secret-token' },
      };
      expect(await searchRegistry(target, ['x'], { timeoutMs: PATIENT_MS })).toEqual([]);
      expect(authorizations).toEqual([undefined]);
    } finally {
      await Promise.all([other, origin].map((s) => new Promise((resolve) => s.close(resolve))));
    }
  });
});

describe('imagePrefix and imageReference (the original registry prefix rule)', () => {
  test.each([
    ['http://example.com:5000/', 'example.com:5000/'],
    ['https://registry.example.com', 'registry.example.com/'],
    ['https://registry.example.com/mirror//', 'registry.example.com/mirror/'],
    ['registry.example.com:443', 'registry.example.com:443/'],
    ['https://user:pw@registry.example.com/', 'registry.example.com/'],
    ['https://index.docker.io', ''],
    ['https://index.docker.io/v1/', ''],
    ['https://registry-1.docker.io/', ''],
    ['docker.io', ''],
    ['', ''],
  ])('%s → "%s"', (endpointUrl, prefix) => {
    expect(imagePrefix(endpointUrl)).toBe(prefix);
  });

  test('imageReference joins prefix, name and tag', () => {
    expect(imageReference({ endpointUrl: 'http://127.0.0.1:5000' }, 'team/web', 'v1')).toBe('127.0.0.1:5000/team/web:v1');
    expect(imageReference({ endpointUrl: 'https://index.docker.io' }, 'tutum/wordpress')).toBe('tutum/wordpress');
    expect(imageReference(null, 'busybox', 'latest')).toBe('busybox:latest');
  });
});
