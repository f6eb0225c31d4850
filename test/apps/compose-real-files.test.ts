import { expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestApp, type TestApp } from '../helpers/app';

/**
 * Real compose files as apps, through POST /apps. The engine is unreachable on purpose
 * (DOCKER_HOST points nowhere): the app is stored from the file, which is what is under test,
 * and no image of the file is pulled or run.
 */
const SENTRY = readFileSync(path.join(__dirname, '../fixtures/compose/sentry-aliases.yaml'), 'utf8');
// What Sentry's .env gives its compose file.
const SENTRY_ENV = {
  SENTRY_IMAGE: 'getsentry/sentry:nightly',
  SNUBA_IMAGE: 'getsentry/snuba:nightly',
  RELAY_IMAGE: 'getsentry/relay:nightly',
  SYMBOLICATOR_IMAGE: 'getsentry/symbolicator:nightly',
  VROOM_IMAGE: 'getsentry/vroom:nightly',
  SENTRY_BIND: '127.0.0.1:9000',
  SENTRY_EVENT_RETENTION_DAYS: '90',
  COMPOSE_PROFILES: 'errors-only',
  HEALTHCHECK_INTERVAL: '30s',
  HEALTHCHECK_TIMEOUT: '1m30s',
  HEALTHCHECK_RETRIES: '10',
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ DOCKER_HOST: 'unix:///nonexistent/docker.sock' });
});
afterAll(() => t.close());

// The services of the file outside the feature-complete profile, in the file's order.
const INFRASTRUCTURE = ['smtp', 'memcached', 'redis', 'postgres', 'kafka', 'clickhouse', 'geoipupdate'];
const SNUBA = ['snuba-api', 'snuba-errors-consumer', 'snuba-outcomes-consumer', 'snuba-outcomes-billing-consumer'];
const SNUBA_MORE = ['snuba-group-attributes-consumer', 'snuba-replacer', 'snuba-subscription-consumer-events'];
const SENTRY_DEFAULTS = [
  ...['web', 'cron', 'worker', 'events-consumer', 'attachments-consumer', 'post-process-forwarder-errors'],
  ...['subscription-consumer-events', 'ingest-monitors', 'monitors-clock-tick', 'monitors-clock-tasks', 'uptime-results'],
  ...['post-process-forwarder-transactions', 'post-process-forwarder-issue-platform', 'subscription-consumer-transactions'],
  ...['subscription-consumer-metrics', 'ingest-occurrences', 'ingest-profiles', 'ingest-feedback-events', 'billing-metrics-consumer'],
  ...['ingest-replay-recordings', 'process-spans', 'taskworker', 'taskscheduler', 'sentry-cleanup'],
];
const NO_DIRECTORY =
  "an app's compose file given inline has no directory on the server: create the app from its template repo (compose_repo_id and compose_file)";
const built = (service: string, image: string) => ({
  message: `warning: services.${service}.build is ignored: ${NO_DIRECTORY}; the image ${image} is run as given`,
});

test("a file with many YAML aliases (Sentry self-hosted's structure) loads as an app, every service with its merged keys", async () => {
  const res = await t.request('POST', '/apps', { body: { compose_yaml: SENTRY, environment: SENTRY_ENV, name: 'sentry' } });
  expect(res.body).toEqual({
    id: expect.any(Number),
    name: 'sentry',
    from: 'Template: App From Compose Yaml',
    errors: [
      { message: 'container engine at unix:///nonexistent/docker.sock is unreachable: connect ENOENT /nonexistent/docker.sock' },
      { message: 'warning: services.smtp.platform is ignored: the engine runs its own platform' },
      built('clickhouse', 'clickhouse-self-hosted-local'),
      built('symbolicator-cleanup', 'symbolicator-cleanup-self-hosted-local'),
      ...SENTRY_DEFAULTS.map((s) => built(s, s === 'sentry-cleanup' ? 'sentry-cleanup-self-hosted-local' : 'sentry-self-hosted-local')),
    ],
    documentation: null,
    categories: [],
  });
  expect(res.status).toBe(200);
  const id = (res.body as { id: number }).id;
  const services = await t.request<{ name: string }[]>('GET', `/apps/${id}/services`);
  expect(services.body.map((s) => s.name)).toEqual([
    ...INFRASTRUCTURE,
    ...SNUBA,
    ...SNUBA_MORE,
    'symbolicator',
    'symbolicator-cleanup',
    ...SENTRY_DEFAULTS,
    'nginx',
    'relay',
  ]);
  // A service made of three levels of merges: its defaults, their restart policy and depends_on.
  const worker = await t.graphql<{ services: { name: string; command: string; environment: { variable: string; value: string }[] }[] }>(
    'query($id: Int!) { services(appId: $id) { name command environment { variable value } } }',
    { id },
  );
  expect(worker.body.data.services.find((s) => s.name === 'taskscheduler')).toEqual({
    name: 'taskscheduler',
    command: 'run taskworker-scheduler',
    environment: [
      { variable: 'PYTHONUSERBASE', value: '/data/custom-packages' },
      { variable: 'SENTRY_CONF', value: '/etc/sentry' },
      { variable: 'SNUBA', value: 'http://snuba-api:1218' },
      { variable: 'VROOM', value: 'http://vroom:8085' },
      { variable: 'DEFAULT_CA_BUNDLE', value: '/etc/ssl/certs/ca-certificates.crt' },
      { variable: 'REQUESTS_CA_BUNDLE', value: '/etc/ssl/certs/ca-certificates.crt' },
      { variable: 'GRPC_DEFAULT_SSL_ROOTS_FILE_PATH_ENV_VAR', value: '/etc/ssl/certs/ca-certificates.crt' },
      { variable: 'COMPOSE_PROFILES', value: 'errors-only' },
      { variable: 'SENTRY_EVENT_RETENTION_DAYS', value: '90' },
    ],
  });
});

test('what will run is shown: GraphQL Service entrypoint, user, workingDir, restart, dependsOn, and the compose export', async () => {
  const compose = `services:
  web:
    image: busybox
    entrypoint: ["/bin/sh", "-c"]
    command: exec httpd -f
    user: "1000:1000"
    working_dir: /srv
    restart: on-failure:3
    environment: [TOKEN, MODE=prod]
    depends_on:
      db: {condition: service_healthy, restart: true}
      cache: {condition: service_started, required: false}
  db:
    image: busybox
    restart: unless-stopped
`;
  const created = await t.request<{ id: number }>('POST', '/apps', { body: { compose_yaml: compose, name: 'shown' } });
  expect(created.status).toBe(200);
  const res = await t.graphql<{ services: unknown[] }>(
    'query($id: Int!) { services(appId: $id) { name command entrypoint user workingDir restart dependsOn { service condition required restart } } }',
    { id: created.body.id },
  );
  expect(res.body).toEqual({
    data: {
      services: [
        {
          name: 'web',
          command: 'exec httpd -f',
          entrypoint: ['/bin/sh', '-c'],
          user: '1000:1000',
          workingDir: '/srv',
          restart: 'on-failure:3',
          dependsOn: [
            { service: 'db', condition: 'service_healthy', required: true, restart: true },
            { service: 'cache', condition: 'service_started', required: false, restart: false },
          ],
        },
        { name: 'db', command: null, entrypoint: null, user: null, workingDir: null, restart: 'unless-stopped', dependsOn: [] },
      ],
    },
  });
  const exported = await t.request<{ compose_yaml: string }>('GET', `/apps/${created.body.id}/compose_yml.json`);
  expect(exported.body.compose_yaml).toBe(`services:
  web:
    image: busybox
    entrypoint:
      - /bin/sh
      - -c
    command: exec httpd -f
    user: 1000:1000
    working_dir: /srv
    restart: on-failure:3
    depends_on:
      db:
        condition: service_healthy
        restart: true
      cache:
        condition: service_started
        required: false
    environment:
      TOKEN: null
      MODE: prod
  db:
    image: busybox
    restart: unless-stopped
`);
});
