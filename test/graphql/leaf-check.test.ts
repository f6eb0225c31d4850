import { expect } from '@jest/globals';
import { buildSchema, parse } from 'graphql';
import { compileForSpeed } from '../../src/graphql/compiled';
import { leafProblems } from '../../src/graphql/leaf-check';

/**
 * Compiled queries answer leaves as resolvers return them (no serialization): the check that stands
 * guard in the test suite must find every leaf a client would have got otherwise, through aliases,
 * lists, fragments and abstract types, and nothing where the answer is right.
 */
const schema = buildSchema(`
  enum Scope { read write }
  scalar DateTime
  interface Node { id: ID! }
  type Template implements Node { id: ID! databaseId: Int! name: String! score: Float stars: Int scope: Scope images: [Image!]! at: DateTime }
  type Image { name: String! exposed: Boolean }
  type Problem { code: Int! }
  union Result = Template | Problem
  type Query { template: Template node: Node result: Result templates: [Template!]! }
`);

const problems = (query: string, data: unknown) => leafProblems(schema, parse(query), undefined, data);

test('right leaves, custom scalars and nulls are no problem', () => {
  const data = {
    template: {
      id: 'VGVtcGxhdGU6MQ',
      databaseId: 1,
      name: 'wp',
      score: 1.5,
      stars: null,
      scope: 'read',
      images: [{ name: 'db', exposed: false }],
      at: new Date(),
    },
  };
  expect(problems('{ template { id databaseId name score stars scope images { name exposed } at } }', data)).toEqual([]);
});

test('each kind of wrong leaf is found, with its path, through aliases and lists', () => {
  const data = {
    t: { id: 1, db: '5', name: 7, score: Number.NaN, stars: 2 ** 31, scope: 'READ', images: [{ name: 'ok', exposed: 1 }] },
  };
  const query = '{ t: template { id db: databaseId name score stars scope images { name exposed } } }';
  expect(problems(query, data)).toEqual([
    'data.t.id: 1 (number) for ID',
    'data.t.db: "5" (string) for Int',
    'data.t.name: 7 (number) for String',
    'data.t.score: null (number) for Float',
    'data.t.stars: 2147483648 (number) for Int',
    'data.t.scope: "READ" (string) for Scope',
    'data.t.images.0.exposed: 1 (number) for Boolean',
  ]);
});

test('fragments are read on the type the result names; an unnamed concrete type is not guessed', () => {
  const query = `
    query Q { node { id ... on Template { name } } result { __typename ... on Problem { code } ...T } templates { ...T } }
    fragment T on Template { databaseId }`;
  expect(
    problems(query, { node: { id: 2, name: 3 }, result: { __typename: 'Problem', code: '4' }, templates: [{ databaseId: 'x' }] }),
  ).toEqual(['Q.node.id: 2 (number) for ID', 'Q.result.code: "4" (string) for Int', 'Q.templates.0.databaseId: "x" (string) for Int']);
});

test('a result without data (a refused root) has no leaves to look at', () => {
  expect(problems('{ template { name } }', null)).toEqual([]);
  expect(problems('{ template { name } }', undefined)).toEqual([]);
});

test('a compiled query checks its answer when asked to, and passes leaves through unserialized when not', async () => {
  const document = parse('{ template { name stars } }');
  const root = { template: { name: 5, stars: 1 } };
  const checked = compileForSpeed(schema, document, undefined, true)!;
  await expect(Promise.resolve().then(() => checked.query(root, {}, {}))).rejects.toThrow('data.template.name: 5 (number) for String');
  const unchecked = compileForSpeed(schema, document, undefined, false)!;
  expect(await unchecked.query(root, {}, {})).toEqual({ data: { template: { name: 5, stars: 1 } } });
});
