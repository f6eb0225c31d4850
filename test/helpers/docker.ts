import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { ServiceDefinition } from '../../src/engines/container-spec';
import { DockerClient } from '../../src/engines/docker-client';
import type { EngineEvent } from '../../src/engines/docker-types';
import { DEFAULT_DOCKER_HOST } from '../../src/engines/docker-http';

/** Made by .ci/docker-up.sh from Debian's busybox-static; never pulled. */
export const TEST_IMAGE = 'platform-test/busybox:latest';

/** A container of the test image with only a name and what `fields` give: no ports, environment, volumes, links or labels. */
export function bareService(name: string, fields: Partial<ServiceDefinition> = {}): ServiceDefinition {
  return {
    name,
    image: TEST_IMAGE,
    environment: [],
    ports: [],
    expose: [],
    volumes: [],
    volumesFrom: [],
    links: [],
    labels: {},
    ...fields,
  };
}

export function testDockerHost(): string {
  return process.env.DOCKER_HOST || DEFAULT_DOCKER_HOST;
}

export function testDockerClient(): DockerClient {
  return new DockerClient({ host: testDockerHost() });
}

/** `{'platform.test': <random>}`: every container and network a test makes carries one. */
export function testLabels(): Record<string, string> {
  return { 'platform.test': randomBytes(6).toString('hex') };
}

export async function dockerAvailable(): Promise<boolean> {
  const client = testDockerClient();
  try {
    return await client.ping();
  } catch {
    return false;
  } finally {
    await client.close();
  }
}

let probed: { ok: boolean; reason: string } | undefined;

/**
 * jest decides what to skip while it collects tests, synchronously, so the engine is asked
 * from a child process (once per test file): GET /_ping with the test image's presence.
 */
function probeEngine(): { ok: boolean; reason: string } {
  if (probed) return probed;
  const script = `
    const http = require('node:http');
    const host = new URL(process.argv[1]);
    const target = host.protocol === 'unix:' ? { socketPath: host.pathname } : { host: host.hostname, port: host.port };
    const get = (path) => new Promise((resolve, reject) => {
      const req = http.get({ ...target, path, timeout: 3000 }, (res) => { res.resume(); resolve(res.statusCode); });
      req.on('timeout', () => req.destroy(new Error('no answer within 3 s'))).on('error', reject);
    });
    get('/_ping')
      .then(() => get('/images/${TEST_IMAGE}/json'))
      .then((status) => console.log(status === 200 ? 'ok' : 'image ${TEST_IMAGE} is missing (run .ci/docker-up.sh)'))
      .catch((e) => console.log(e.message));`;
  const result = spawnSync(process.execPath, ['-e', script, testDockerHost()], { encoding: 'utf8', timeout: 15_000 });
  const out = (result.stdout || result.stderr || String(result.error ?? 'no answer')).trim();
  probed = out === 'ok' ? { ok: true, reason: '' } : { ok: false, reason: out.split('\n').pop() ?? out };
  return probed;
}

/**
 * `describe` for suites that need the real engine: skipped with the reason when none answers,
 * and failed instead when REQUIRE_DOCKER=1 (CI), so a broken engine cannot pass as "skipped".
 */
export function describeDocker(name: string, fn: () => void): void {
  const { ok, reason } = probeEngine();
  if (ok) {
    describe(name, fn);
  } else if (process.env.REQUIRE_DOCKER === '1') {
    describe(name, () => {
      test('needs a Docker engine (REQUIRE_DOCKER=1)', () => {
        throw new Error(`no usable Docker engine at ${testDockerHost()}: ${reason}`);
      });
    });
  } else {
    const why = `no usable Docker engine at ${testDockerHost()}: ${reason}`;
    console.warn(`skipping "${name}": ${why} (REQUIRE_DOCKER=1 makes this a failure)`);
    // eslint-disable-next-line jest/no-disabled-tests -- the one skip of a missing engine; REQUIRE_DOCKER=1 (CI) fails instead
    describe.skip(`${name} [skipped: ${why}]`, fn);
  }
}

/** Removes every container (with its volumes), network and volume carrying `label` (`key=value` or `key`). */
export async function removeByLabel(label: string): Promise<void> {
  const [key, ...rest] = label.split('=');
  const labels = { [key]: rest.join('=') };
  const client = testDockerClient();
  try {
    for (const container of await client.listContainers({ all: true, labels })) {
      await client.removeContainer(container.Id, { force: true, removeVolumes: true }).catch(() => undefined);
    }
    for (const network of await client.listNetworks({ labels })) {
      await client.removeNetwork(network.Id).catch(() => undefined);
    }
    for (const volume of await client.listVolumes({ labels })) {
      await client.removeVolume(volume.Name).catch(() => undefined);
    }
  } finally {
    await client.close();
  }
}

/**
 * The test image with another default command (and exposed ports), under `ref`: what a template's
 * or a compose file's image is made from here, with no registry to pull it from.
 */
export async function makeImage(docker: DockerClient, ref: string, cmd: string[], exposed: string[] = []): Promise<void> {
  const { Id } = await docker.createContainer(undefined, {
    Image: TEST_IMAGE,
    Env: [],
    Labels: { 'platform.test': 'image' },
    ExposedPorts: {},
    Volumes: {},
    HostConfig: { PortBindings: {}, Binds: [], VolumesFrom: [] },
  });
  const [repo, tag] = ref.split(':');
  await docker.request('POST', '/commit', {
    query: { container: Id, repo, tag },
    body: { Cmd: cmd, ExposedPorts: Object.fromEntries(exposed.map((p) => [p, {}])) },
  });
  await docker.removeContainer(Id, { force: true });
}

/**
 * The events the engine recorded between two moments (ms since the epoch, this host's clock): with
 * `until` in the past the engine sends them and ends the stream, so nothing is waited for.
 */
export async function pastEvents(
  docker: DockerClient,
  sinceMs: number,
  untilMs: number,
  filters: Record<string, string[]> = {},
): Promise<EngineEvent[]> {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const response = await docker.stream('GET', '/events', { query: { since: seconds(sinceMs), until: seconds(untilMs), filters } });
  let text = '';
  for await (const chunk of response.body) text += (chunk as Buffer).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as EngineEvent);
}
