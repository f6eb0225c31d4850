import { expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NODE_TYPES } from '../../schema/global-id';
import { sseSubscribe } from '../events/clients';
import { startClientFixture, type ClientFixture } from './client-fixtures';

const { possibleTypes } = JSON.parse(readFileSync(path.join(__dirname, '../../schema/possible-types.json'), 'utf8')) as {
  possibleTypes: Record<string, string[]>;
};

interface Identity {
  id: string;
  databaseId: number;
}
interface Everything {
  apps: (Identity & { categories: { category: Identity }[]; services: Identity[] })[];
  templates: Identity[];
  registries: Identity[];
  deploymentTargets: (Identity & { deployments: Identity[] })[];
}

/** Object identification (Node, global ids, databaseId) and partial results. */
describe('GraphQL identity and partial results', () => {
  let f: ClientFixture;

  beforeAll(async () => {
    f = await startClientFixture();
  });
  afterAll(() => f?.close());

  test('the global id decoder knows exactly the types that implement Node', () => {
    expect([...NODE_TYPES].sort()).toEqual([...(possibleTypes.Node ?? [])].sort());
  });

  test('node(id:) and nodes(ids:) load every kind of node by its global id; an unknown one is null, a made-up id a 400', async () => {
    await f.t.request('POST', '/registries', { body: { name: 'r1', endpoint_url: 'https://r1.example' } });
    const all = (
      await f.query<Everything>(`{
      apps { id databaseId categories { category { id databaseId } } services { id databaseId } }
      templates { id databaseId }
      registries { id databaseId }
      deploymentTargets { id databaseId deployments { id databaseId target { databaseId } } }
      apiTokens { id databaseId }
    }`)
    ).data;
    const expected: [string, string, number][] = [
      ['App', all.apps[0].id, all.apps[0].databaseId],
      ['Category', all.apps[0].categories[0].category.id, all.apps[0].categories[0].category.databaseId],
      ['Service', all.apps[0].services[0].id, all.apps[0].services[0].databaseId],
      ['Template', all.templates[0].id, all.templates[0].databaseId],
      ['Registry', all.registries[1].id, all.registries[1].databaseId],
      ['DeploymentTarget', all.deploymentTargets[1].id, all.deploymentTargets[1].databaseId],
      ['Deployment', all.deploymentTargets[1].deployments[0].id, 1],
    ];
    for (const [type, id, databaseId] of expected) {
      const res = await f.query(
        'query($id: ID!) { node(id: $id) { __typename id ... on App { databaseId } ... on Category { databaseId } ... on Service { databaseId } ... on Template { databaseId } ... on Registry { databaseId } ... on DeploymentTarget { databaseId } ... on Deployment { databaseId target { name } } } }',
        { id },
      );
      expect(res).toEqual({ data: { node: expect.objectContaining({ __typename: type, id, databaseId }) } });
    }
    // Deployment 1 of each target: two ids, two objects.
    const [east, west] = all.deploymentTargets.map((t) => t.deployments[0].id);
    const both = await f.query('query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Deployment { databaseId target { name } } } }', {
      ids: [east, west, Buffer.from('App:424242').toString('base64')],
    });
    expect(both).toEqual({
      data: { nodes: [{ id: east, databaseId: 1, target: { name: 'east' } }, { id: west, databaseId: 1, target: { name: 'west' } }, null] },
    });

    // A global id this API did not give out fails its field alone: BAD_REQUEST with its path and
    // location, the rest answered, and a 200 (the response has data: GraphQL-over-HTTP's rule for
    // execution errors, for its own media type too). It used to refuse the whole operation with a
    // 400: the cost check decodes arguments before execution, and the decoder threw.
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      const forged = await f.t.request('POST', '/graphql', {
        headers: { accept },
        body: { query: '{ node(id: "bm90LWFuLWlk") { id } me { username } }' },
      });
      expect(forged.status).toBe(200);
      expect(forged.body).toEqual({
        data: { node: null, me: { username: 'admin' } },
        errors: [
          {
            message: '"bm90LWFuLWlk" is not an id this API gave out',
            locations: [{ line: 1, column: 3 }],
            path: ['node'],
            extensions: { code: 'BAD_REQUEST', status: 400, fields: ['id'] },
          },
        ],
      });
    }
    // In nodes(ids:), each such id is null with its error at its index; the others are answered.
    // `App:abc` names a type but not a key of its shape.
    const mixed = await f.t.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: ['garbage', east, Buffer.from('App:abc').toString('base64')],
    });
    expect(mixed.status).toBe(200);
    expect(mixed.body).toEqual({
      data: { nodes: [null, { id: east }, null] },
      errors: [0, 2].map((index) => ({
        message: expect.stringMatching(/ is not an id this API gave out$/),
        locations: [{ line: 1, column: 23 }],
        path: ['nodes', index],
        extensions: { code: 'BAD_REQUEST', status: 400, fields: [`ids.${index}`] },
      })),
    });
  });

  test('nodes(ids:) takes at most 100 ids; Error.code is the ErrorCode enum of the catalogue', async () => {
    const many = await f.query('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
      ids: Array(101).fill(Buffer.from('App:1').toString('base64')),
    });
    expect(many.errors).toEqual([
      expect.objectContaining({
        message: 'nodes takes at most 100 ids',
        extensions: expect.objectContaining({ code: 'BAD_REQUEST', fields: ['ids'] }),
      }),
    ]);
    const types = (
      await f.query<{
        error: { fields: { name: string; type: { ofType: unknown } }[] };
        codes: { enumValues: { name: string }[] };
      }>(
        '{ error: __type(name: "Error") { fields { name type { ofType { name kind } } } } codes: __type(name: "ErrorCode") { enumValues { name } } }',
      )
    ).data;
    expect(types.error.fields.find((field) => field.name === 'code')?.type.ofType).toEqual({
      name: 'ErrorCode',
      kind: 'ENUM',
    });
    expect(types.codes.enumValues.map((v) => v.name)).toEqual(
      expect.arrayContaining([
        'BAD_REQUEST',
        'NOT_FOUND',
        'CONFLICT',
        'VALIDATION_FAILED',
        'UPSTREAM_FAILED',
        'UPSTREAM_TIMEOUT',
        'FORBIDDEN',
      ]),
    );
  });

  test('a lookup by an unknown databaseId is null beside the rest of the answer, with its error, and HTTP 200', async () => {
    const res = await f.t.graphql('{ me { username } apps { name } a: app(id: 999) { id } }');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { me: { username: expect.any(String) }, apps: [{ name: 'Site' }], a: null },
      errors: [
        {
          message: 'app 999 not found',
          locations: [{ line: 1, column: 33 }],
          path: ['a'],
          extensions: { code: 'NOT_FOUND', status: 404, fields: ['id'] },
        },
      ],
    });
    // REST reads the error back: still a 404 with the same body.
    expect(await f.t.request('GET', '/apps/999')).toMatchObject({
      status: 404,
      body: { code: 404, message: 'app 999 not found', fields: 'id' },
    });
  });

  test('a subscription event carries the deployment it is about, with its global id and target', async () => {
    const [east] = f.targets;
    const node = (
      await f.query<{ deploymentTargets: { deployments: object[] }[] }>('{ deploymentTargets { deployments { id name target { id } } } }')
    ).data.deploymentTargets[0].deployments[0];
    const stream = await sseSubscribe(
      f.t.url,
      `subscription($t: Int!) { deploymentStatusChanged(targetId: $t, id: 1) {
      targetId deploymentId deployment { id name target { id } status { services { actualState } } }
    } }`,
      { t: east.id },
    );
    try {
      const event = (await stream.next<{ deploymentStatusChanged: unknown }>()).data.deploymentStatusChanged;
      expect(event).toEqual({
        targetId: east.id,
        deploymentId: 1,
        deployment: { ...node, status: { services: [{ actualState: 'running 2/2' }, { actualState: 'running 2/2' }] } },
      });
    } finally {
      await stream.close();
    }
  });

  // Last: it stops one of the two agents.
  test('one unreachable agent nulls its own deployments only; the other target and REST keep their answers', async () => {
    const [, west] = f.targets;
    await west.agent.close();
    const res = await f.t.graphql('{ deploymentTargets { name deployments { databaseId name } } apps { name } }');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      deploymentTargets: [
        { name: 'east', deployments: [{ databaseId: 1, name: 'Blog' }] },
        { name: 'west', deployments: null },
      ],
      apps: [{ name: 'Site' }],
    });
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        path: ['deploymentTargets', 1, 'deployments'],
        extensions: expect.objectContaining({ code: 'UPSTREAM_FAILED', status: 502 }),
      }),
    ]);
    const rest = await f.t.request('GET', `/deployment_targets/${west.id}/deployments`);
    expect(rest.status).toBe(502);
    expect(rest.body).toEqual({ code: 502, message: res.body.errors?.[0]?.message, fields: '' });
    expect((await f.t.request('GET', `/deployment_targets/${f.targets[0].id}/deployments`)).status).toBe(200);
  });
});
