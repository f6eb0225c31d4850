import { COMPOSE_TEMPLATE_NAME, loadComposeApp, parseComposeYaml, shellQuote } from '../../src/apps/compose/compose-app';
import { containerSpec } from '../../src/engines/container-spec';
import type { ImageDefinition } from '../../src/parts/image';
import { bareImage } from '../../src/parts/image';
import { BadRequestError, ValidationError } from '../../src/errors';

function image(overrides: Partial<ImageDefinition>): ImageDefinition {
  return { ...bareImage('web', 'nginx'), type: 'Default', ...overrides };
}

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('parseComposeYaml', () => {
  test('compose v1: services at the top level', () => {
    const text = `
web:
  image: wordpress:4
  links: [db, "cache:memo"]
  ports: ["8080:80", "443"]
  environment:
    WORDPRESS_DB_HOST: db
    EMPTY:
  volumes_from: [db]
  expose: [9000, "9001/tcp"]
  depends_on: [db]
db:
  image: mysql:5.7
  environment: [MYSQL_ROOT_PASSWORD=s3cr=t, MYSQL_ALLOW_EMPTY]
  volumes: ["/var/lib/mysql", "/etc/conf:/etc/mysql/conf.d:ro", "data:/data:rw"]
cache:
  image: memcached
`;
    expect(parseComposeYaml(text)).toEqual({
      name: COMPOSE_TEMPLATE_NAME,
      description: null,
      keywords: null,
      type: 'Default',
      documentation: null,
      authors: [],
      source: null,
      images: [
        image({
          name: 'web',
          source: 'wordpress:4',
          links: [
            { service: 'db', alias: 'db' },
            { service: 'cache', alias: 'memo' },
          ],
          ports: [
            { host_port: 8080, container_port: 80, proto: 'TCP' },
            { container_port: 443, proto: 'TCP' },
          ],
          // EMPTY has no value and the request's environment does not give it: left unset.
          environment: [{ variable: 'WORDPRESS_DB_HOST', value: 'db' }],
          volumes_from: [{ service: 'db' }],
          expose: ['9000', '9001'],
        }),
        image({
          name: 'db',
          source: 'mysql:5.7',
          environment: [{ variable: 'MYSQL_ROOT_PASSWORD', value: 's3cr=t' }],
          volumes: [
            { container_path: '/var/lib/mysql' },
            { host_path: '/etc/conf', container_path: '/etc/mysql/conf.d:ro' },
            { host_path: 'data', container_path: '/data' },
          ],
        }),
        image({ name: 'cache', source: 'memcached' }),
      ],
    });
  });

  test('compose v3: services key, version and top-level networks ignored, long forms, command, replicas', () => {
    const text = `
version: "3.8"
services:
  api:
    image: example/api:1.0
    command: ["node", "server.js", "--name", "it's me"]
    ports:
      - "127.0.0.1:8080:80"
      - "5353:53/udp"
      - "[::1]:9090:90"
      - "127.0.0.1::7000"
      - target: 3000
        published: "3001"
        protocol: udp
        host_ip: 0.0.0.0
      - 22
    volumes:
      - type: bind
        source: /srv/api
        target: /app
        read_only: true
      - type: volume
        target: /cache
    deploy:
      replicas: 3
  worker:
    image: example/worker
    command: run --queue default
    volumes_from: ["service:api:ro"]
networks:
  default: {}
volumes:
  data: {}
`;
    expect(parseComposeYaml(text).images).toEqual([
      image({
        name: 'api',
        source: 'example/api:1.0',
        command: `node server.js --name 'it'\\''s me'`,
        ports: [
          { host_interface: '127.0.0.1', host_port: 8080, container_port: 80, proto: 'TCP' },
          { host_port: 5353, container_port: 53, proto: 'UDP' },
          { host_interface: '::1', host_port: 9090, container_port: 90, proto: 'TCP' },
          { host_interface: '127.0.0.1', container_port: 7000, proto: 'TCP' },
          { host_interface: '0.0.0.0', host_port: 3001, container_port: 3000, proto: 'UDP' },
          { container_port: 22, proto: 'TCP' },
        ],
        volumes: [{ host_path: '/srv/api', container_path: '/app:ro' }, { container_path: '/cache' }],
        deployment: { count: 3 },
      }),
      image({ name: 'worker', source: 'example/worker', command: 'run --queue default', volumes_from: [{ service: 'api' }] }),
    ]);
  });

  test('YAML that does not parse, or is not a mapping, is a bad request on compose_yaml', () => {
    for (const text of ['web: [unclosed', '- a\n- b', '', 'just text']) {
      const error = thrown(() => parseComposeYaml(text));
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).fields).toEqual(['compose_yaml']);
    }
  });

  test('a build-only service, bad ports, container volumes_from and a missing link: one ValidationError', () => {
    const text = `
services:
  app:
    build: .
  web:
    image: nginx
    ports: ["80:abc", "8000-8010:80", {published: 80}]
    links: [nowhere]
    volumes_from: ["container:other"]
  other:
    image: nginx
    ports: ["8080:80"]
  third:
    image: nginx
    ports: ["8080:81"]
`;
    const error = thrown(() => parseComposeYaml(text)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.fields).toEqual(['compose_yaml']);
    expect(error.message).toBe(
      [
        "compose_yaml: services.app.build: an app's compose file given inline has no directory on the server: create the app from its template repo (compose_repo_id and compose_file); or give the image to run",
        'services.web.ports[0]: "80:abc": "abc" is not a port number',
        'services.web.ports[1]: "8000-8010:80": the host and container ranges differ in size (a host range for one container port is not supported: give one host port)',
        'services.web.ports[2]: target: "" is not a port number',
        'services.web.volumes_from[0]: "container:other": only services of this file can share volumes, not containers',
        'services.web.links[0]: linked service "nowhere" is not an image of this template',
        'services.third.ports[0]: host port 8080/TCP is already used by services.other.ports[0]',
      ].join('; '),
    );
  });

  test('no services at all', () => {
    const error = thrown(() => parseComposeYaml('version: "3"\nservices: {}\n'));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe('compose_yaml: no services defined');
  });
});

test("an environment entry without a value takes the request's variable, else stays unset (not empty)", () => {
  const text =
    'services:\n  web:\n    image: busybox\n    environment: {GIVEN:, ABSENT:, SET: "1"}\n  db:\n    image: busybox\n    environment: [GIVEN, ABSENT, EMPTY]\n';
  const app = loadComposeApp(text, { environment: { GIVEN: 'from the call', EMPTY: '' } });
  expect(app.definition.images.map((i) => [i.name, i.environment])).toEqual([
    [
      'web',
      [
        { variable: 'GIVEN', value: 'from the call' },
        { variable: 'SET', value: '1' },
      ],
    ],
    [
      'db',
      [
        { variable: 'GIVEN', value: 'from the call' },
        { variable: 'EMPTY', value: '' },
      ],
    ],
  ]);
  expect(app.options.get('web')).toEqual({ unsetEnvironment: ['ABSENT'] });
  expect(app.options.get('db')).toEqual({ unsetEnvironment: ['ABSENT'] });
  // The engine unsets a bare NAME, the image's own value too; the service's own value still wins.
  const spec = containerSpec({
    name: 'web',
    image: 'busybox',
    environment: [{ variable: 'SET', value: '1' }],
    unsetEnvironment: ['ABSENT', 'SET'],
    ports: [],
    expose: [],
    volumes: [],
    volumesFrom: [],
    links: [],
    labels: {},
  });
  expect(spec.Env).toEqual(['ABSENT', 'SET=1']);
});

test('shellQuote leaves safe words bare and single-quotes the rest', () => {
  expect(shellQuote('--port=80')).toBe('--port=80');
  expect(shellQuote('two words')).toBe("'two words'");
  expect(shellQuote("it's")).toBe("'it'\\''s'");
  expect(shellQuote('')).toBe("''");
});
