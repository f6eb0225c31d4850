import { expect } from '@jest/globals';
import { startTestApp, type TestApp } from '../helpers/app';
import type { AppBody, ServiceBody } from '../helpers/bodies';
import { describeDocker, TEST_IMAGE } from '../helpers/docker';
import { cleanupEngine, instanceId, waitFor } from './fixtures';

type Errors = { code: number; message: string; fields: string } | null;

/**
 * README "Apps from compose files", `depends_on`: a service whose dependency does not meet its
 * condition is not started, and its `errors` say why with 424. Real engine, real containers.
 */
describeDocker('a failed depends_on condition is a 424 on the waiting service', () => {
  let t: TestApp;
  let instance: string;

  beforeAll(async () => {
    t = await startTestApp();
    instance = await instanceId(t);
  });

  afterAll(async () => {
    await t?.close();
    if (instance) await cleanupEngine(instance);
  });

  async function settle(compose: string) {
    const created = await t.request<AppBody>('POST', '/apps', { body: { compose_yaml: compose } });
    expect(created.status).toBe(200);
    const services = await waitFor(
      async () => (await t.request<(ServiceBody & { errors: Errors })[]>('GET', `/apps/${created.body.id}/services`)).body,
      // Settled: the waiting service has its errors, or (were the condition ignored) a container.
      (list) => list.some((s) => s.name === 'web' && (s.errors !== null || Boolean(s.container_status.id))),
      120_000,
    );
    return services.map((s) => ({ name: s.name, errors: s.errors, container: s.container_status.id ?? null }));
  }

  test('a dependency that exits non-zero: service_completed_successfully', async () => {
    const compose = `
services:
  migrate:
    image: ${TEST_IMAGE}
    command: sh -c 'exit 3'
  web:
    image: ${TEST_IMAGE}
    command: sleep 3600
    depends_on: {migrate: {condition: service_completed_successfully}}
`;
    expect(await settle(compose)).toEqual([
      { name: 'migrate', errors: null, container: expect.any(String) },
      {
        name: 'web',
        errors: {
          code: 424,
          message: 'migrate exited with code 3, and this service needs it to complete successfully (depends_on)',
          fields: 'depends_on',
        },
        container: null,
      },
    ]);
  }, 180_000);

  test('a dependency that turns unhealthy: service_healthy', async () => {
    const compose = `
services:
  db:
    image: ${TEST_IMAGE}
    command: sleep 3600
    healthcheck: {test: ["CMD", "false"], interval: 1s, retries: 1}
  web:
    image: ${TEST_IMAGE}
    command: sleep 3600
    depends_on: {db: {condition: service_healthy}}
`;
    expect(await settle(compose)).toEqual([
      { name: 'db', errors: null, container: expect.any(String) },
      {
        name: 'web',
        errors: { code: 424, message: 'db did not become healthy (depends_on service_healthy): it is unhealthy', fields: 'depends_on' },
        container: null,
      },
    ]);
  }, 180_000);
});
