import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DockerClient } from '../../src/engines/docker-client';
import { EngineUnreachableError, isEngineUnreachable } from '../../src/engines/engine-errors';
import { UpstreamError, UpstreamTimeoutError } from '../../src/errors';

// These need no Docker engine: the "engine" is a socket path with nothing behind it, or a
// local unix-socket server that accepts and never answers.
describe('engine transport errors', () => {
  let dir: string;
  let server: Server | undefined;
  const sockets: Socket[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'platform-engine-'));
  });

  afterEach(async () => {
    sockets.forEach((socket) => socket.destroy());
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  test('no socket: 502 naming the engine and the reason', async () => {
    const host = `unix://${dir}/docker.sock`;
    const docker = new DockerClient({ host });
    const error = await docker.ping().catch((e: unknown) => e);
    await docker.close();
    expect(error).toBeInstanceOf(EngineUnreachableError);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(isEngineUnreachable(error)).toBe(true);
    expect(error).toMatchObject({ httpStatus: 502, code: 'UPSTREAM_FAILED' });
    expect((error as Error).message).toBe(`container engine at ${host} is unreachable: connect ENOENT ${dir}/docker.sock`);
  });

  test('a TCP port with nothing listening: 502 unreachable', async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as { port: number }).port;
    await new Promise((resolve) => free.close(resolve));
    const docker = new DockerClient({ host: `tcp://127.0.0.1:${port}` });
    await expect(docker.version()).rejects.toThrow(
      `container engine at tcp://127.0.0.1:${port} is unreachable: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    await docker.close();
  });

  test('an engine that never answers: 504 at the call timeout, and the request is given up', async () => {
    const socketPath = path.join(dir, 'silent.sock');
    const requestLines: string[] = [];
    const closed: Promise<unknown>[] = [];
    server = createServer((socket) => {
      sockets.push(socket);
      // Read what comes (a socket nobody reads never sees the client's end).
      socket.once('data', (data) => requestLines.push(String(data).split('\r\n')[0]));
      closed.push(new Promise((resolve) => socket.once('close', resolve)));
    });
    await new Promise<void>((resolve) => server!.listen(socketPath, resolve));
    const docker = new DockerClient({ host: `unix://${socketPath}`, timeoutMs: 300 });
    // Only the 300 ms timeout ends this call (the test's own timeout is the safety net).
    const error = await docker.inspectContainer('web').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamTimeoutError);
    expect(error).toMatchObject({
      httpStatus: 504,
      message: `container engine at unix://${socketPath} did not answer GET /containers/web/json within 300 ms`,
    });
    // The request reached the engine, and the client closed that connection on giving up.
    expect(requestLines[0]).toMatch(/^GET \/[^ ]*containers\/web\/json HTTP\/1\.1$/);
    await closed[0];
    await docker.close();
  });

  test('an address that is neither unix nor tcp is refused at construction', () => {
    expect(() => new DockerClient({ host: 'ssh://somewhere' })).toThrow('unsupported container engine address ssh://somewhere');
  });
});
