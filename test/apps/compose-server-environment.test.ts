import { expect } from '@jest/globals';
import type { DockerClient } from '../../src/engines/docker-client';
import { startTestApp, type TestApp } from '../helpers/app';
import type { AppBody, JournalEntry, ServiceBody } from '../helpers/bodies';
import { describeDocker, TEST_IMAGE, testDockerClient } from '../helpers/docker';
import { cleanupEngine, instanceId, waitFor } from './fixtures';

const LEAK = 'PLATFORM_TEST_LEAK';

/**
 * README "Apps from compose files": interpolation takes values from the request's `environment`
 * map only, never the server's environment, and a bare `environment: [NAME]` entry is not filled
 * from it either. The server's process has the variable; the container, run on the real engine,
 * must not see its value anywhere.
 */
describeDocker("compose variables never come from the server's environment", () => {
  let t: TestApp;
  let docker: DockerClient;
  let instance: string;
  const saved = process.env[LEAK];

  beforeAll(async () => {
    // The service runs in this process: this is the server's own environment.
    process.env[LEAK] = 'leaked-value';
    t = await startTestApp();
    docker = testDockerClient();
    instance = await instanceId(t);
  });

  afterAll(async () => {
    if (saved === undefined) delete process.env[LEAK];
    else process.env[LEAK] = saved;
    await t?.close();
    if (instance) await cleanupEngine(instance);
    await docker?.close();
  });

  // `$$` is a literal `$`: the container's own shell reads the variable the container got.
  const compose = `
services:
  leak:
    image: ${TEST_IMAGE}
    command: ["sh", "-c", "echo \\"braces=\${${LEAK}} default=\${${LEAK}:-default} bare=$${LEAK}\\"; echo \\"container=$\${${LEAK}-unset}\\"; exec sleep 3600"]
    environment: [${LEAK}]
    labels: {from-compose: "\${${LEAK}:-none}"}
`;

  async function run(environment?: Record<string, string>) {
    const res = await t.request<AppBody>('POST', '/apps', { body: { compose_yaml: compose, environment } });
    expect(res.status).toBe(200);
    const id = res.body.id;
    const lines = await waitFor(
      async () => (await t.request<JournalEntry[]>('GET', `/apps/${id}/journal`)).body,
      (l) => Array.isArray(l) && l.some((e) => e.message.startsWith('container=')),
      120_000,
    );
    const [service] = (await t.request<ServiceBody[]>('GET', `/apps/${id}/services`)).body;
    const inspect = (await docker.inspectContainer(service.container_status.id))!;
    return {
      errors: res.body.errors,
      output: lines.map((e) => e.message),
      env: (inspect.Config.Env ?? []).filter((e) => e.startsWith(`${LEAK}=`)),
      label: inspect.Config.Labels?.['from-compose'],
      anywhere: JSON.stringify(inspect).includes('leaked-value'),
    };
  }

  test("${VAR}, ${VAR:-default}, $VAR and environment: [VAR] reach the container without the server's value", async () => {
    expect(process.env[LEAK]).toBe('leaked-value');
    expect(await run()).toEqual({
      errors: [{ message: `warning: the variable ${LEAK} is not set: it was replaced by an empty string (give it in environment)` }],
      // An entry without a value that the request does not give is left unset.
      output: ['braces= default=default bare=', 'container=unset'],
      env: [],
      label: 'none',
      anywhere: false,
    });
  }, 180_000);

  test("the request's environment is where the values come from (the same file, the variable given)", async () => {
    expect(await run({ [LEAK]: 'given' })).toEqual({
      errors: [],
      output: ['braces=given default=given bare=given', 'container=given'],
      env: [`${LEAK}=given`],
      label: 'given',
      anywhere: false,
    });
  }, 180_000);
});
