import { expect } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadComposeApp } from '../../src/apps/compose/compose-app';
import { loadCompose } from '../../src/apps/compose/loader';
import { parseTemplateFile, validateTemplate } from '../../src/catalog/template-file';
import { ValidationError } from '../../src/errors';

const fixtures = path.join(__dirname, '../fixtures');
const conformance = path.join(fixtures, 'compose-spec-conformance');
const panamax = path.join(fixtures, 'panamax-public-templates');

function thrown(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    return error as ValidationError;
  }
  throw new Error('expected an error');
}

describe('compose loader: the canonical model', () => {
  test('merge keys and anchors are applied (a Sentry-style x-defaults block)', () => {
    const model = loadCompose(`
x-defaults: &defaults
  image: busybox
  restart: unless-stopped
  environment: {SHARED: "1"}
services:
  web:
    <<: *defaults
    command: httpd
  worker:
    <<: *defaults
    environment: {OWN: "2"}
`);
    expect(model.services).toEqual({
      web: { image: 'busybox', restart: 'unless-stopped', environment: { SHARED: '1' }, command: 'httpd' },
      worker: { image: 'busybox', restart: 'unless-stopped', environment: { OWN: '2' } },
    });
  });

  test('interpolation from the request environment: ${VAR}, $VAR, :-, -, :+, nested defaults, $$', () => {
    const model = loadCompose(
      `
services:
  web:
    image: "\${REPO:-busybox}:\${TAG-latest}"
    ports: ["\${PORT:-8080}:80"]
    environment:
      A: $NAME
      B: "\${EMPTY:-fallback}"
      C: "\${EMPTY-kept-empty}"
      D: "\${NAME:+set}"
      E: "\${MISSING:-\${NAME}-nested}"
      F: "cost: $$5"
      G: "\${UNSET}"
`,
      { environment: { NAME: 'world', EMPTY: '', TAG: '1.36' } },
    );
    expect(model.services.web).toEqual({
      image: 'busybox:1.36',
      ports: ['8080:80'],
      environment: { A: 'world', B: 'fallback', C: '', D: 'set', E: 'world-nested', F: 'cost: $5', G: '' },
    });
    expect(model.warnings).toEqual(['the variable UNSET is not set: it was replaced by an empty string (give it in environment)']);
  });

  test('${VAR:?err} without a value is a 422 naming the variable', () => {
    const error = thrown(() => loadCompose('services:\n  db:\n    image: "postgres:${PG_VERSION:?set the version}"\n'));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe('compose_yaml: services.db.image: required variable PG_VERSION is missing a value: set the version');
    expect(
      loadCompose('services:\n  db:\n    image: "postgres:${PG_VERSION:?x}"\n', { environment: { PG_VERSION: '16' } }).services.db.image,
    ).toBe('postgres:16');
  });

  test("extends within the file: the base's keys under the child's, depends_on not inherited", () => {
    const model = loadCompose(`
services:
  base:
    image: busybox
    environment: [A=1]
    ports: ["80"]
    depends_on: [db]
  web:
    extends: base
    environment: [B=2]
    command: sleep 1
  admin:
    extends: {service: web}
    command: [sleep, "2"]
  db:
    image: busybox
`);
    expect(model.services.web).toEqual({ image: 'busybox', environment: ['A=1', 'B=2'], ports: ['80'], command: 'sleep 1' });
    expect(model.services.admin).toEqual({ image: 'busybox', environment: ['A=1', 'B=2'], ports: ['80'], command: ['sleep', '2'] });
    expect(
      thrown(() => loadCompose('services:\n  a:\n    extends: {service: b, file: other.yml}\n  b:\n    image: x\n')).message,
    ).toContain('services.a.extends.file: "other.yml" cannot be read');
    expect(thrown(() => loadCompose('services:\n  a:\n    extends: b\n  b:\n    extends: a\n')).message).toContain('cycle');
  });

  test('profiles: services of inactive profiles are left out; a request names the active ones', () => {
    const text = 'services:\n  app:\n    image: x\n  debug:\n    image: y\n    profiles: [debug]\n';
    expect(Object.keys(loadCompose(text).services)).toEqual(['app']);
    expect(Object.keys(loadCompose(text, { profiles: ['debug'] }).services)).toEqual(['app', 'debug']);
  });

  test('the compose-spec JSON schema: an unknown key and a wrong type are 422s naming them', () => {
    const error = thrown(() => loadCompose('services:\n  web:\n    image: x\n    imagee: y\n    read_only: "maybe"\n'));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.fields).toEqual(['compose_yaml']);
    expect(error.message).toBe(
      'compose_yaml: services.web: "imagee" is not a key the Compose Specification knows; services.web.read_only: must be boolean',
    );
  });

  test('every compose-spec conformance file loads to the canonical model', () => {
    const files = readdirSync(conformance)
      .filter((f) => f.endsWith('.yaml'))
      .sort();
    expect(files).toHaveLength(8);
    for (const file of files) {
      const model = loadCompose(readFileSync(path.join(conformance, file), 'utf8'));
      expect(Object.keys(model.services).length).toBeGreaterThan(0);
    }
  });

  test('conformance files as apps: those that need files from a directory are refused naming them, the rest map', () => {
    const app = (file: string) => () => loadComposeApp(readFileSync(path.join(conformance, `${file}.yaml`), 'utf8'));
    expect(thrown(app('simple_secretfile')).message).toBe(
      'compose_yaml: secrets.test_secret: file "./test_secret.txt" cannot be read: an app\'s compose file given inline has no directory on the server: create the app from its template repo (compose_repo_id and compose_file); give it from environment: (a variable of the request\'s environment)',
    );
    expect(thrown(app('simple_configfile')).message).toContain('configs.test_config: file "./test_config.txt" cannot be read');
    expect(thrown(app('simple_volume')).message).toContain('services.entry.volumes[0]: "./test_volume.txt" is a relative host path');
    expect(app('scaling')().options.get('client')).toEqual({ replicas: 3 });
    expect(app('different_networks')().options.get('target')).toEqual({ networks: [{ name: 'targetnetwork', aliases: [] }] });
    expect(app('udp_port')().definition.images[0].ports).toEqual([
      { host_port: 8080, container_port: 8080, proto: 'TCP' },
      { host_port: 10001, container_port: 10001, proto: 'UDP' },
    ]);
    expect(app('simple_lifecycle')().definition.images.map((i) => i.name)).toEqual(['test1']);
  });

  test('every official Panamax template loads and validates', () => {
    const files = readdirSync(panamax)
      .filter((f) => f.endsWith('.pmx'))
      .sort();
    expect(files).toHaveLength(18);
    const broken: string[] = [];
    for (const file of files) {
      try {
        validateTemplate(parseTemplateFile(readFileSync(path.join(panamax, file), 'utf8'), file));
      } catch {
        broken.push(file);
      }
    }
    // secure_docker_registry.pmx links to an image by the original's service-name form of its
    // source, which loading accepts when exactly one image matches (README, template leniencies).
    expect(broken).toEqual([]);
  });
});

describe('compose keys: honoured, warned about, or refused by name', () => {
  const service = (body: string) => loadComposeApp(`name: demo\nservices:\n  web:\n    image: busybox\n${body}`);

  test('engine keys map to the container create body', () => {
    const app = service(`    entrypoint: ["/bin/sh", "-c"]
    user: "1000:1000"
    working_dir: /srv
    labels: {team: a}
    healthcheck: {test: ["CMD", "true"], interval: 1m30s, timeout: 500ms, retries: 3, start_period: 2s}
    restart: on-failure:2
    cap_add: [NET_ADMIN]
    cap_drop: [ALL]
    devices: ["/dev/null:/dev/nothing:r"]
    sysctls: {net.core.somaxconn: 1024}
    ulimits: {nofile: {soft: 1024, hard: 2048}, nproc: 64}
    shm_size: 64m
    tmpfs: ["/run:size=1m"]
    read_only: true
    init: true
    stop_grace_period: 1m
    extra_hosts: ["gateway:10.0.0.1"]
    dns: [1.1.1.1]
    logging: {driver: json-file, options: {max-size: 1m}}
`);
    expect(app.name).toBe('demo');
    // restart is the image's restart_policy, as a .pmx file's (not an engine option).
    expect(app.definition.images.map((image) => image.restart_policy)).toEqual(['on-failure:2']);
    expect(app.options.get('web')).toEqual({
      engine: {
        config: {
          Entrypoint: ['/bin/sh', '-c'],
          User: '1000:1000',
          WorkingDir: '/srv',
          Labels: { team: 'a' },
          StopTimeout: 60,
          Healthcheck: { Test: ['CMD', 'true'], Interval: 90e9, Timeout: 5e8, Retries: 3, StartPeriod: 2e9 },
        },
        hostConfig: {
          CapAdd: ['NET_ADMIN'],
          CapDrop: ['ALL'],
          Devices: [{ PathOnHost: '/dev/null', PathInContainer: '/dev/nothing', CgroupPermissions: 'r' }],
          Sysctls: { 'net.core.somaxconn': '1024' },
          Ulimits: [
            { Name: 'nofile', Soft: 1024, Hard: 2048 },
            { Name: 'nproc', Soft: 64, Hard: 64 },
          ],
          ShmSize: 64 * 1024 * 1024,
          Tmpfs: { '/run': 'size=1m' },
          ReadonlyRootfs: true,
          Init: true,
          ExtraHosts: ['gateway:10.0.0.1'],
          Dns: ['1.1.1.1'],
          LogConfig: { Type: 'json-file', Config: { 'max-size': '1m' } },
        },
      },
    });
    expect(app.warnings).toEqual([]);
  });

  test('current keys: depends_on restart and required, healthcheck start_interval', () => {
    const app = loadComposeApp(`name: demo
services:
  web:
    image: busybox
    depends_on:
      db: {condition: service_healthy, restart: true}
      cache: {condition: service_started, required: false}
      metrics: {condition: service_started, required: false}
  db:
    image: busybox
    healthcheck: {test: ["CMD", "true"], interval: 30s, start_period: 10s, start_interval: 1s}
  cache:
    image: busybox
    profiles: [cache]
`);
    expect(app.options.get('web')).toEqual({
      dependsOn: [
        { service: 'db', condition: 'service_healthy', restart: true },
        { service: 'cache', condition: 'service_started', required: false },
        { service: 'metrics', condition: 'service_started', required: false },
      ],
    });
    expect(app.options.get('db')).toEqual({
      engine: {
        config: { Healthcheck: { Test: ['CMD', 'true'], Interval: 30e9, StartPeriod: 10e9, StartInterval: 1e9 } },
        hostConfig: {},
      },
    });
    expect(app.warnings).toEqual([
      'services.db.healthcheck.start_interval is given to the engine, which honours it from API version 1.44 (Docker 25) on; an older engine checks at interval from the start',
    ]);
    // Required (the default): a dependency that is not there is still a 422.
    expect(
      thrown(() =>
        loadComposeApp('services:\n  web:\n    image: x\n    depends_on: {ghost: {condition: service_started, required: true}}\n'),
      ).message,
    ).toBe('compose_yaml: services.web.depends_on: "ghost" is not a service of this file (or not in an active profile)');
    expect(thrown(() => loadComposeApp('include: [other.yaml]\nservices:\n  web:\n    image: x\n')).message).toBe(
      'compose_yaml: include: other compose files cannot be read: an app is made from one file; put their services in it',
    );
  });

  test('fixed addresses need a subnet of the network; endpoint keys not given to the engine are warned about', () => {
    const net = (service: string, top: string) =>
      `services:\n  web:\n    image: x\n    networks:\n      back: ${service}\nnetworks:\n  back: ${top}\n`;
    expect(thrown(() => loadComposeApp(net('{ipv4_address: 10.1.2.3}', '{}'))).message).toBe(
      "compose_yaml: services.web.networks.back.ipv4_address: a fixed address needs a subnet of the network's own: give networks.back.ipam.config[].subnet",
    );
    expect(thrown(() => loadComposeApp(net('{ipv4_address: 10.9.9.9}', '{ipam: {config: [{subnet: 10.1.2.0/24}]}}'))).message).toBe(
      'compose_yaml: services.web.networks.back.ipv4_address: 10.9.9.9 is not in a subnet of networks.back (10.1.2.0/24)',
    );
    expect(thrown(() => loadComposeApp(net('{}', '{ipam: {driver: dhcp}}'))).message).toBe(
      'compose_yaml: networks.back.ipam.driver: "dhcp" is not supported: the engine\'s default IPAM driver is used',
    );
    const app = loadComposeApp(net('{ipv4_address: 10.1.2.3, ipv6_address: "fd00::3"}', '{ipam: {config: [{subnet: 10.1.2.0/24}]}}'));
    expect(app.options.get('web')).toEqual({
      networks: [{ name: 'back', aliases: [], ipv4Address: '10.1.2.3', ipam: [{ Subnet: '10.1.2.0/24' }] }],
    });
    expect(app.warnings).toEqual([
      'services.web.networks.back.ipv6_address is ignored: the engine gives the address and settings of its own',
    ]);
  });

  test('each refused key is a 422 naming it', () => {
    const cases: [string, string][] = [
      [
        '    env_file: .env\n',
        "services.web.env_file: an app's compose file given inline has no directory on the server: create the app from its template repo (compose_repo_id and compose_file); or put the variables in environment",
      ],
      ['    external_links: [other]\n', 'services.web.external_links: an app only reaches its own services'],
      ['    network_mode: host\n', 'services.web.network_mode: "host" would take the service off its app\'s network'],
      ['    cgroup_parent: x\n', 'services.web.cgroup_parent: not supported'],
      ['    userns_mode: host\n', 'services.web.userns_mode: not supported'],
      ['    ipc: "service:db"\n', "services.web.ipc: sharing another service's IPC namespace is not supported"],
      ['    build: .\n', 'services.web.build'],
      ['    networks: [nowhere]\n', 'services.web.networks: "nowhere" is not declared'],
      ['    depends_on: [ghost]\n', 'services.web.depends_on: "ghost" is not a service of this file'],
      [
        '    read_only: true\n    secrets: [s]\nsecrets:\n  s: {environment: S}\n',
        'services.web.read_only: a read-only service cannot be given secrets or configs here',
      ],
    ];
    for (const [body, message] of cases) {
      const text = body.startsWith('    build') ? 'services:\n  web:\n' + body : undefined;
      const error = thrown(() => (text ? loadComposeApp(text) : service(body)));
      expect({ body, error: error.message }).toEqual({ body, error: expect.stringContaining(message) });
      expect(error).toBeInstanceOf(ValidationError);
    }
  });

  test('each warned key is accepted with a warning naming it', () => {
    const app = service(
      '    container_name: fixed\n    platform: linux/arm64\n    pull_policy: always\n    deploy: {replicas: 2, resources: {limits: {cpus: "0.5"}}}\n    build: .\n',
    );
    expect(app.warnings).toEqual([
      'services.web.container_name is ignored: containers get app-scoped names so that copies of an app run side by side; the service is reached by its own name',
      'services.web.platform is ignored: the engine runs its own platform',
      'services.web.pull_policy is ignored: images the engine has are used; missing ones are pulled',
      "services.web.build is ignored: an app's compose file given inline has no directory on the server: create the app from its template repo (compose_repo_id and compose_file); the image busybox is run as given",
      'services.web.deploy.resources is ignored: only deploy.replicas applies to apps on one engine',
    ]);
    expect(app.options.get('web')).toEqual({ replicas: 2 });
  });
});
