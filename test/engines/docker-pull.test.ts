import { Readable } from 'node:stream';
import type { DockerClient } from '../../src/engines/docker-client';
import { pullQuery, readPullProgress, registryAuthHeader } from '../../src/engines/docker-pull';
import { UpstreamError } from '../../src/errors';
import { describeDocker, testDockerClient, TEST_IMAGE } from '../helpers/docker';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';

describe('pull helpers', () => {
  test('a reference without tag or digest pulls latest only', () => {
    expect(pullQuery('busybox')).toEqual({ fromImage: 'busybox', tag: 'latest' });
    expect(pullQuery('localhost:5000/a/b')).toEqual({ fromImage: 'localhost:5000/a/b', tag: 'latest' });
    expect(pullQuery('localhost:5000/a/b:1.2')).toEqual({ fromImage: 'localhost:5000/a/b:1.2' });
    expect(pullQuery('a/b@sha256:00')).toEqual({ fromImage: 'a/b@sha256:00' });
  });

  test('an error line in the progress stream fails the pull, even split across chunks', async () => {
    const lines = ['{"status":"Pulling from a/b"}\n{"errorDetail":{"message":"toomany', 'requests"},"error":"toomanyrequests"}\n'];
    await expect(readPullProgress('a/b:1', Readable.from(lines.map((l) => Buffer.from(l))))).rejects.toThrow(
      new UpstreamError('pulling image a/b:1 failed: toomanyrequests'),
    );
    await expect(readPullProgress('a/b:1', Readable.from([Buffer.from('{"status":"Done"}')]))).resolves.toEqual(['Done']);
  });

  test('X-Registry-Auth is base64url JSON', () => {
    const header = registryAuthHeader({ username: 'u', password: 'p?>', serveraddress: 'r.example' });
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ username: 'u', password: 'p?>', serveraddress: 'r.example' });
    expect(header).not.toMatch(/[+/=]/);
  });
});

/**
 * The engine pulls from the real registry (Debian's docker-registry, Basic auth) over loopback
 * (127.0.0.0/8 is an insecure registry by default, so plain HTTP is fine). The test image is
 * pushed to it by the engine itself, then untagged here, so what a pull brings is the registry's.
 */
(registryAvailable() ? describeDocker : describe.skip)('pullImage from a local registry', () => {
  let docker: DockerClient;
  let registry: TestRegistry;
  let ref: string;
  let auth: { username: string; password: string; serveraddress: string };
  let testImageId: string;

  beforeAll(async () => {
    docker = testDockerClient();
    registry = await startRegistry({ auth: 'basic', username: 'puller', password: 's3cret' });
    ref = `${registry.host}/pt/busybox:latest`;
    auth = { username: 'puller', password: 's3cret', serveraddress: registry.host };
    testImageId = (await docker.inspectImage(TEST_IMAGE)).Id;
    await docker.request('POST', `/images/${TEST_IMAGE}/tag`, { query: { repo: `${registry.host}/pt/busybox`, tag: 'latest' } });
    const pushed = await docker.stream('POST', `/images/${registry.host}/pt/busybox/push`, {
      query: { tag: 'latest' },
      headers: { 'x-registry-auth': registryAuthHeader(auth) },
      timeoutMs: 120_000,
    });
    await readPullProgress(`push of ${ref}`, pushed.body);
    // Untagged only: the test image keeps its own name, and the pulls below must fetch it.
    await docker.removeImage(ref);
    expect(await docker.imageExists(ref)).toBe(false);
  }, 120_000);

  afterAll(async () => {
    await docker?.removeImage(ref).catch(() => undefined);
    await docker?.close();
    await registry?.stop();
  });

  test('without credentials, or with a wrong password, it is a 502 naming the image, and nothing arrives', async () => {
    // The engine says the same for both: the registry's 401 to the credentials it had, if any.
    const refused = new UpstreamError(
      `pulling image ${ref} failed: Head "${registry.url}/v2/pt/busybox/manifests/latest": no basic auth credentials`,
    );
    const denied = await docker.pullImage(ref).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(UpstreamError);
    expect(denied).toEqual(refused);
    const wrong = await docker.pullImage(ref, { auth: { ...auth, password: 'wrong' } }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(UpstreamError);
    expect(wrong).toEqual(refused);
    expect(await docker.imageExists(ref)).toBe(false);
  });

  test('with credentials the image arrives: the test image, as pushed', async () => {
    await docker.pullImage(ref, { auth });
    expect((await docker.inspectImage(ref)).Id).toBe(testImageId);
  });

  test('an unknown tag is a 502 naming the image', async () => {
    const missing = `${registry.host}/pt/busybox:nope`;
    const unknown = await docker.pullImage(missing, { auth }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UpstreamError);
    expect(unknown).toEqual(
      new UpstreamError(`pulling image ${missing} failed: manifest for ${missing} not found: manifest unknown: manifest unknown`),
    );
  });
});
