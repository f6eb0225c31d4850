import { expect } from '@jest/globals';
import { request } from 'undici';
import type { DockerClient } from '../../src/engines/docker-client';
import { containerSpec, type ServiceDefinition } from '../../src/engines/container-spec';
import { EngineConflictError, EngineNotFoundError } from '../../src/engines/engine-errors';
import { containerStatus, serviceState } from '../../src/engines/states';
import { TEST_IMAGE, bareService, describeDocker, removeByLabel, testDockerClient, testLabels } from '../helpers/docker';
import { freePort } from '../../src/net/free-port';

describeDocker('DockerClient against the real engine', () => {
  let docker: DockerClient;
  let labels: Record<string, string>;
  const name = (suffix: string) => `pt-${labels['platform.test']}-${suffix}`;

  function service(suffix: string, command: string, overrides: Partial<ServiceDefinition> = {}): ServiceDefinition {
    return bareService(name(suffix), { command, labels, ...overrides });
  }

  async function run(def: ServiceDefinition): Promise<string> {
    const { Id } = await docker.createContainer(def.name, containerSpec(def));
    await docker.startContainer(Id);
    return Id;
  }

  beforeEach(() => {
    docker = testDockerClient();
    labels = testLabels();
  });

  afterEach(async () => {
    await removeByLabel(`platform.test=${labels['platform.test']}`);
    await docker.close();
  });

  test('the engine answers ping and version; the test image exists', async () => {
    expect(await docker.ping()).toBe(true);
    expect(await docker.version()).toMatchObject({ ApiVersion: expect.stringMatching(/^1\.\d+$/) });
    expect(await docker.imageExists(TEST_IMAGE)).toBe(true);
    expect(await docker.imageExists('platform-test/none:latest')).toBe(false);
    await expect(docker.inspectImage('platform-test/none:latest')).rejects.toBeInstanceOf(EngineNotFoundError);
  });

  test('a busybox httpd published on 127.0.0.1 answers, and its status shows the port', async () => {
    const port = await freePort();
    const id = await run(
      service('httpd', `sh -c 'mkdir -p /www && echo "hello from busybox" > /www/index.html && exec httpd -f -p 80 -h /www'`, {
        ports: [{ host_interface: '127.0.0.1', host_port: port, container_port: 80 }],
      }),
    );
    // Asked until httpd inside is up (an overall deadline only as a safety net).
    let body = '';
    for (const deadline = Date.now() + 30_000; !body && Date.now() < deadline;) {
      body = await request(`http://127.0.0.1:${port}/index.html`).then(
        (r) => r.body.text(),
        () => '',
      );
      if (!body) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(body).toBe('hello from busybox\n');

    const inspect = await docker.inspectContainer(id);
    expect(serviceState(inspect)).toEqual({ load_state: 'loaded', active_state: 'active', sub_state: 'running' });
    expect(containerStatus(inspect)).toMatchObject({
      id,
      image: TEST_IMAGE,
      state: 'running',
      running: true,
      exit_code: null,
      ports: [{ container_port: 80, proto: 'tcp', host_interface: '127.0.0.1', host_port: port }],
    });

    const listed = await docker.listContainers({ labels });
    expect(listed.map((c) => [c.Id, c.Names])).toEqual([[id, [`/${name('httpd')}`]]]);
    expect(await docker.listContainers({ labels: { 'platform.test': 'someone-else' } })).toEqual([]);

    await docker.stopContainer(id, 1);
    await docker.stopContainer(id, 1); // 304: already stopped is not an error
    expect((await docker.inspectContainer(id))?.State.Running).toBe(false);
  });

  test('a second container with the same name is a conflict; a missing one is null or 404', async () => {
    const def = service('dup', 'true');
    await docker.createContainer(def.name, containerSpec(def));
    await expect(docker.createContainer(def.name, containerSpec(def))).rejects.toBeInstanceOf(EngineConflictError);
    expect(await docker.inspectContainer(name('missing'))).toBeNull();
    await expect(docker.startContainer(name('missing'))).rejects.toBeInstanceOf(EngineNotFoundError);
    await expect(docker.logs(name('missing'))).rejects.toBeInstanceOf(EngineNotFoundError);
  });

  test('logs are split into stdout and stderr lines with timestamps', async () => {
    const id = await run(service('logs', `sh -c 'echo out one; echo err one >&2; echo out two; printf "no newline" >&2'`));
    expect(await docker.waitContainer(id)).toBe(0);
    const entries = await docker.logs(id);
    const byStream = (stream: string) => entries.filter((e) => e.stream === stream).map((e) => e.message);
    expect(byStream('stdout')).toEqual(['out one', 'out two']);
    expect(byStream('stderr')).toEqual(['err one', 'no newline']);
    for (const entry of entries) expect(entry.timestamp).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    expect((await docker.logs(id, { tail: 1, timestamps: false })).length).toBe(1);
  });

  test('a TTY container has unframed logs, read as stdout', async () => {
    const def = service('tty', `sh -c 'echo tty out; echo tty err >&2'`);
    const { Id } = await docker.createContainer(def.name, { ...containerSpec(def), Tty: true });
    await docker.startContainer(Id);
    await docker.waitContainer(Id);
    expect((await docker.logs(Id)).map((e) => [e.stream, e.message])).toEqual([
      ['stdout', 'tty out'],
      ['stdout', 'tty err'],
    ]);
  });

  test('states: created, exited 0, exited 1, then gone', async () => {
    const created = service('created', 'true');
    const { Id: createdId } = await docker.createContainer(created.name, containerSpec(created));
    expect(serviceState(await docker.inspectContainer(createdId))).toEqual({
      load_state: 'loaded',
      active_state: 'inactive',
      sub_state: 'dead',
    });

    const ok = await run(service('ok', 'true'));
    const failed = await run(service('fail', `sh -c 'exit 1'`));
    expect(await docker.waitContainer(ok)).toBe(0);
    expect(await docker.waitContainer(failed)).toBe(1);
    expect(serviceState(await docker.inspectContainer(ok))).toEqual({
      load_state: 'loaded',
      active_state: 'inactive',
      sub_state: 'exited',
    });
    expect(serviceState(await docker.inspectContainer(failed))).toEqual({
      load_state: 'loaded',
      active_state: 'failed',
      sub_state: 'failed',
    });
    expect(containerStatus(await docker.inspectContainer(failed))).toMatchObject({ state: 'exited', exit_code: 1, running: false });

    await docker.removeContainer(failed, { force: true, removeVolumes: true });
    expect(serviceState(await docker.inspectContainer(failed))).toEqual({
      load_state: 'not-found',
      active_state: 'inactive',
      sub_state: 'dead',
    });
  });

  test('on an app network, a link alias resolves for the linking container', async () => {
    const network = name('net');
    await docker.createNetwork(network, labels);
    expect((await docker.listNetworks({ labels })).map((n) => n.Name)).toEqual([network]);
    // The client is created first: a network-scoped link may name a container made later.
    const client = await run(
      service(
        'client',
        `sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do wget -q -O - http://database/index.html && exit 0; sleep 0.5; done; exit 1'`,
        {
          links: [{ service: name('db'), alias: 'database' }],
          network: { name: network, aliases: ['client'] },
        },
      ),
    );
    await run(
      service('db', `sh -c 'mkdir -p /www && echo "db by alias" > /www/index.html && exec httpd -f -p 80 -h /www'`, {
        network: { name: network, aliases: ['db'] },
      }),
    );
    expect(await docker.waitContainer(client)).toBe(0);
    // Earlier tries may have logged "bad address" on stderr while db did not exist yet.
    expect((await docker.logs(client)).filter((e) => e.stream === 'stdout').map((e) => e.message)).toEqual(['db by alias']);

    // connectNetwork: a container's extra name on a second network.
    const other = name('net2');
    await docker.createNetwork(other, labels);
    await docker.connectNetwork(other, name('db'), ['store']);
    const prober = await run(service('prober', `wget -q -O - http://store/index.html`, { network: { name: other, aliases: [] } }));
    expect(await docker.waitContainer(prober)).toBe(0);
    expect((await docker.logs(prober)).map((e) => e.message)).toEqual(['db by alias']);
  });

  test('events report a container start', async () => {
    const seen: string[] = [];
    let died: () => void = () => undefined;
    const dieSeen = new Promise<void>((resolve) => (died = resolve));
    const subscription = await docker.events(
      { filters: { label: [`platform.test=${labels['platform.test']}`], type: ['container'] } },
      (event) => {
        seen.push(event.Action);
        if (event.Action === 'die') died();
      },
    );
    const id = await run(service('events', 'true'));
    await docker.waitContainer(id);
    await dieSeen;
    subscription.stop();
    await subscription.done;
    expect(seen).toEqual(expect.arrayContaining(['create', 'start', 'die']));
  });
});
