import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import { Readable } from 'node:stream';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { DockerClient } from '../../src/engines/docker-client';
import { pullQuery, readPullProgress, registryAuthHeader } from '../../src/engines/docker-pull';
import { UpstreamError } from '../../src/errors';
import { describeDocker, testDockerClient } from '../helpers/docker';

const sha = (data: Buffer | string) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/**
 * A registry v2 that serves one one-layer image and wants Basic auth: the engine pulls from it
 * over loopback (127.0.0.0/8 is an insecure registry by default, so plain HTTP is fine).
 */
function tinyRegistry(): { server: Server; blobs: Map<string, Buffer>; manifest: Buffer } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'platform-layer-'));
  writeFileSync(path.join(dir, 'hello.txt'), 'pulled\n');
  const tar = execFileSync('tar', ['-C', dir, '-cf', '-', 'hello.txt']);
  rmSync(dir, { recursive: true, force: true });
  const layer = gzipSync(tar);
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      config: { Cmd: ['/hello.txt'], ExposedPorts: { '8080/tcp': {} } },
      rootfs: { type: 'layers', diff_ids: [sha(tar)] },
    }),
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
      config: { mediaType: 'application/vnd.docker.container.image.v1+json', size: config.length, digest: sha(config) },
      layers: [{ mediaType: 'application/vnd.docker.image.rootfs.diff.tar.gzip', size: layer.length, digest: sha(layer) }],
    }),
  );
  const blobs = new Map([
    [sha(config), config],
    [sha(layer), layer],
  ]);
  const server = createServer((req, res) => {
    res.setHeader('Docker-Distribution-API-Version', 'registry/2.0');
    if (req.headers.authorization !== `Basic ${Buffer.from('puller:s3cret').toString('base64')}`) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="tiny"', 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'authentication required' }] }));
    }
    const url = req.url ?? '';
    let body: Buffer | undefined;
    let type = 'application/octet-stream';
    if (url === '/v2/') body = Buffer.from('{}');
    else if (url === '/v2/pt/tiny/manifests/latest' || url === `/v2/pt/tiny/manifests/${sha(manifest)}`) {
      body = manifest;
      type = 'application/vnd.docker.distribution.manifest.v2+json';
    } else if (url.startsWith('/v2/pt/tiny/blobs/')) body = blobs.get(url.slice('/v2/pt/tiny/blobs/'.length));
    if (!body) {
      res.writeHead(404, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ errors: [{ code: 'MANIFEST_UNKNOWN', message: 'manifest unknown' }] }));
    }
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length, 'Docker-Content-Digest': sha(body) });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return { server, blobs, manifest };
}

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

describeDocker('pullImage from a local registry', () => {
  let docker: DockerClient;
  let server: Server;
  let registry: string;

  beforeAll(async () => {
    docker = testDockerClient();
    server = tinyRegistry().server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    registry = `127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await docker.removeImage(`${registry}/pt/tiny:latest`, { force: true }).catch(() => undefined);
    await docker.close();
    await new Promise((resolve) => server.close(resolve));
  });

  test('with credentials the image arrives', async () => {
    const ref = `${registry}/pt/tiny`;
    await docker.pullImage(ref, { auth: { username: 'puller', password: 's3cret', serveraddress: registry } });
    expect((await docker.inspectImage(`${ref}:latest`)).Config?.ExposedPorts).toEqual({ '8080/tcp': {} });
  });

  test('without credentials, or for an unknown tag, it is a 502 naming the image', async () => {
    const denied = await docker.pullImage(`${registry}/pt/tiny:latest`).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(UpstreamError);
    expect((denied as Error).message).toMatch(new RegExp(`^pulling image ${registry}/pt/tiny:latest failed: .*(auth|unauthorized)`, 'i'));

    const unknown = await docker
      .pullImage(`${registry}/pt/tiny:nope`, {
        auth: { username: 'puller', password: 's3cret', serveraddress: registry },
      })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UpstreamError);
    expect((unknown as Error).message).toMatch(new RegExp(`^pulling image ${registry}/pt/tiny:nope failed: .*manifest unknown`));
  });
});
