import { expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseTemplateFile } from '../../src/catalog/template-file';
import type { DockerClient } from '../../src/engines/docker-client';
import { startTestApp, type TestApp } from '../helpers/app';
import type { AppBody, JournalEntry, ServiceBody } from '../helpers/bodies';
import { describeDocker, makeImage, TEST_IMAGE, testDockerClient } from '../helpers/docker';
import { freePort } from '../../src/net/free-port';
import { cleanupEngine, instanceId, seedTemplate, waitFor } from './fixtures';

describeDocker('compose and Panamax apps run as their authors meant', () => {
  let t: TestApp;
  let docker: DockerClient;
  let instance: string;

  beforeAll(async () => {
    t = await startTestApp();
    docker = testDockerClient();
    instance = await instanceId(t);
  });

  afterAll(async () => {
    await t?.close();
    await cleanupEngine(instance);
    for (const ref of ['centurylink/wordpress:3.9.1', 'centurylink/mysql:5.5'])
      await docker?.removeImage(ref, { force: true }).catch(() => undefined);
    await docker?.close();
  });

  const journal = (id: number, done: (lines: JournalEntry[]) => boolean) =>
    waitFor(
      async () => (await t.request<JournalEntry[]>('GET', `/apps/${id}/journal`)).body,
      (l) => Array.isArray(l) && done(l),
      180_000,
    );
  const services = async (id: number) => (await t.request<ServiceBody[]>('GET', `/apps/${id}/services`)).body;

  test('the official WordPress template: its DB_1 link sets the variables the 2014 image reads', async () => {
    // Both images print the link variables they got, then wait: stand-ins for centurylink's images.
    const print = ['sh', '-c', 'env | grep ^DB_1_ | sort; exec sleep 3600'];
    await makeImage(docker, 'centurylink/wordpress:3.9.1', print, ['80/tcp']);
    await makeImage(docker, 'centurylink/mysql:5.5', print, ['3306/tcp']);
    const template = parseTemplateFile(
      readFileSync(path.join(__dirname, '../fixtures/panamax-public-templates/wordpress.pmx'), 'utf8'),
      'wordpress.pmx',
    );
    // Host ports of the shared test machine may be taken: the engine picks free ones on loopback.
    for (const image of template.images) image.ports = image.ports.map((p) => ({ ...p, host_interface: '127.0.0.1', host_port: null }));
    const id = await seedTemplate(t, template);
    const res = await t.request<AppBody>('POST', `/apps?template_id=${id}`, { body: {} });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Wordpress with MySQL');
    const lines = (await journal(res.body.id, (l) => l.some((e) => e.service === 'WP' && e.message.startsWith('DB_1_PORT='))))
      .filter((e) => e.service === 'WP')
      .map((e) => e.message);
    const db = (await services(res.body.id)).find((s) => s.name === 'DB');
    if (!db) throw new Error('no DB service');
    const ip = (await docker.inspectContainer(db.container_status.id))!.NetworkSettings.Networks[
      `platform-app-${res.body.id}-${instance.slice(0, 8)}`
    ].IPAddress;
    expect(lines).toEqual([
      'DB_1_ENV_MYSQL_ROOT_PASSWORD=pass@word01',
      `DB_1_NAME=/platform-app-${res.body.id}-${instance.slice(0, 8)}-WP/DB_1`,
      `DB_1_PORT=tcp://${ip}:3306`,
      `DB_1_PORT_3306_TCP=tcp://${ip}:3306`,
      `DB_1_PORT_3306_TCP_ADDR=${ip}`,
      'DB_1_PORT_3306_TCP_PORT=3306',
      'DB_1_PORT_3306_TCP_PROTO=tcp',
    ]);
  }, 300_000);

  test("a compose file's engine keys, depends_on conditions, secrets, networks with aliases and replicas", async () => {
    const port = await freePort();
    const compose = `
name: shop
x-base: &base
  image: ${TEST_IMAGE}
services:
  db:
    <<: *base
    command: sh -c 'sleep 1; touch /tmp/ready; exec sleep 3600'
    healthcheck: {test: ["CMD", "test", "-f", "/tmp/ready"], interval: 1s, retries: 30}
    networks:
      back: {aliases: [database]}
      default: {}
    ports: ["127.0.0.1:\${WEB_PORT}:80"]
  migrate:
    <<: *base
    command: sh -c 'echo migrated'
    networks: [back]
    read_only: true
    init: true
  web:
    <<: *base
    entrypoint: ["sh", "-c"]
    command: ["cat /run/secrets/token; echo; id -u; pwd; nslookup database >/dev/null && echo found database; exec sleep 3600"]
    user: "1234"
    working_dir: /tmp
    labels: {tier: front}
    secrets: [token]
    depends_on:
      db: {condition: service_healthy}
      migrate: {condition: service_completed_successfully}
    networks: [back, default]
    deploy: {replicas: 2}
    container_name: fixed
  debug:
    <<: *base
    profiles: [debug]
networks:
  back: {internal: true}
secrets:
  token: {environment: TOKEN}
`;
    const res = await t.request<AppBody>('POST', '/apps', {
      body: { compose_yaml: compose, environment: { WEB_PORT: port, TOKEN: 's3cret' }, name: 'my shop' },
    });
    expect(res.body).toMatchObject({ id: expect.any(Number) });
    expect(res.body).toMatchObject({
      name: 'my shop',
      from: 'Compose: shop',
      errors: [
        {
          message:
            'warning: services.web.container_name is ignored: containers get app-scoped names so that copies of an app run side by side; the service is reached by its own name',
        },
      ],
    });
    const id = res.body.id;
    const project = `platform-app-${id}-${instance.slice(0, 8)}`;
    const lines = (await journal(id, (l) => l.filter((e) => e.message === 'found database').length === 2))
      .filter((e) => e.service === 'web')
      .map((e) => e.message);
    expect(lines).toEqual(['s3cret', '1234', '/tmp', 'found database', 's3cret', '1234', '/tmp', 'found database']);
    const list = await services(id);
    expect(list.map((s) => s.name)).toEqual(['db', 'migrate', 'web']);
    // The port came from the request's environment.
    expect(list[0].ports).toEqual([{ host_interface: '127.0.0.1', host_port: port, container_port: 80, proto: 'TCP' }]);
    const containers = await docker.listContainers({
      all: true,
      labels: { 'platform.instance': instance, 'platform.service': String(list[2].id) },
    });
    expect(containers.map((c) => c.Names[0]).sort()).toEqual([`/${project}-web`, `/${project}-web-2`]);
    const web = (await docker.inspectContainer(containers[0].Id))!;
    expect(web.Config.Labels).toMatchObject({ tier: 'front' });
    const [migrate] = await docker.listContainers({
      all: true,
      labels: { 'platform.instance': instance, 'platform.service': String(list[1].id) },
    });
    expect((await docker.inspectContainer(migrate.Id))!.HostConfig).toMatchObject({ ReadonlyRootfs: true, Init: true });
    expect(Object.keys(web.NetworkSettings.Networks).sort()).toEqual([project, `${project}_back`]);
    const back = await docker.inspectNetwork(`${project}_back`);
    expect(back?.Internal).toBe(true);

    const bad = await t.request('POST', '/apps', { body: { compose_yaml: 'services:\n  a:\n    image: "x:${TAG:?give the tag}"\n' } });
    expect(bad.body).toEqual({
      code: 422,
      message: 'compose_yaml: services.a.image: required variable TAG is missing a value: give the tag',
      fields: 'compose_yaml',
    });
    const refused = await t.request('POST', '/apps', { body: { compose_yaml: 'services:\n  a:\n    image: x\n    env_file: .env\n' } });
    expect(refused.body).toEqual({ code: 422, message: expect.stringContaining('services.a.env_file'), fields: 'compose_yaml' });
  }, 400_000);
});
