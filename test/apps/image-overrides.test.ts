import { expect } from '@jest/globals';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker } from '../helpers/docker';
import { cleanupEngine, image, instanceId, seedTemplate, suffix } from './fixtures';

interface Created {
  createApp:
    | {
        __typename: 'App';
        databaseId: number;
        services: {
          name: string;
          command: string | null;
          environment: { variable: string; value: string }[];
          ports: { containerPort: string; hostPort: string | null }[];
        }[];
      }
    | { __typename: string; code: string; message: string; fields: string[] };
}

const CREATE = `mutation($input: CreateAppInput!) {
  createApp(input: $input) {
    __typename
    ... on App { databaseId services { name command environment { variable value } ports { containerPort hostPort } } }
    ... on Error { code message fields }
  }
}`;

/** createApp's imageOverrides: a template's images changed before the app starts, merged as a deployment's override is. */
describeDocker('an app from a template with per-image overrides', () => {
  let t: TestApp;
  let instance: string;
  let templateId: number;
  const sfx = suffix();

  beforeAll(async () => {
    t = await startTestApp();
    instance = await instanceId(t);
    templateId = await seedTemplate(t, {
      name: `Overridden ${sfx}`,
      images: [
        image({
          name: 'web',
          command: 'httpd -f -p 80',
          environment: [
            { variable: 'MODE', value: 'demo' },
            { variable: 'GREETING', value: 'hello' },
          ],
          ports: [{ container_port: 80, host_port: null }],
        }),
        image({ name: 'worker', command: 'sleep 3600' }),
      ],
    });
  });

  afterAll(async () => {
    await t?.close();
    if (instance) await cleanupEngine(instance);
  });

  const appCount = async () => (await t.request<unknown[]>('GET', '/apps')).body.length;

  test('environment merges by variable, ports by container port, a command replaces; other images stay as they were', async () => {
    const res = await t.graphql<Created>(CREATE, {
      input: {
        templateId,
        imageOverrides: [
          {
            name: 'web',
            command: 'httpd -f -p 8080',
            environment: [
              { variable: 'GREETING', value: 'bonjour' },
              { variable: 'EXTRA', value: '1' },
            ],
            ports: [{ containerPort: '80', hostPort: null }, { containerPort: '8080' }],
          },
        ],
      },
    });
    const created = res.body.data.createApp;
    expect(created.__typename).toBe('App');
    if (created.__typename !== 'App' || !('services' in created)) throw new Error('no app');
    const web = created.services.find((s) => s.name === 'web')!;
    expect(web.command).toBe('httpd -f -p 8080');
    expect(web.environment).toEqual([
      { variable: 'MODE', value: 'demo' },
      { variable: 'GREETING', value: 'bonjour' },
      { variable: 'EXTRA', value: '1' },
    ]);
    expect(web.ports.map((p) => String(p.containerPort))).toEqual(['80', '8080']);
    expect(created.services.find((s) => s.name === 'worker')!.command).toBe('sleep 3600');
    await t.request('DELETE', `/apps/${created.databaseId}`);
  });

  test('an override for no image of the template, or with a count, is a 422 naming it, and nothing is stored', async () => {
    const before = await appCount();
    const unknown = await t.graphql<Created>(CREATE, {
      input: { templateId, imageOverrides: [{ name: 'web' }, { name: 'nope', environment: [{ variable: 'A', value: 'b' }] }] },
    });
    expect(unknown.body.data.createApp).toEqual({
      __typename: 'ValidationError',
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('"nope" is not an image of the template'),
      fields: ['image_overrides[1].name'],
    });
    const counted = await t.graphql<Created>(CREATE, {
      input: { templateId, imageOverrides: [{ name: 'web', deployment: { count: 2 } }] },
    });
    expect(counted.body.data.createApp).toMatchObject({ __typename: 'ValidationError', fields: ['image_overrides[0].deployment'] });
    const compose = await t.graphql<Created>(CREATE, {
      input: { composeYaml: 'services:\n  a:\n    image: busybox\n', imageOverrides: [{ name: 'a' }] },
    });
    expect(compose.body.data.createApp).toMatchObject({ __typename: 'ValidationError', fields: ['image_overrides'] });
    expect(await appCount()).toBe(before);
  });
});
