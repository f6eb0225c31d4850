import { expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { makeGitRepo, pmx } from '../helpers/git';
import { startTestApp, type TestApp } from '../helpers/app';
import { parseYamlBounded, YamlInputError } from '../../src/yaml/parse';
import { Document, visit } from 'yaml';

/**
 * A 1 MB YAML file whose keywords are 480 aliases of one 1 MB string took the service to
 * its heap limit (the `yaml` library bounds the number of aliases, not what they expand to).
 */
function aliasBomb(stringBytes: number, aliases: number, key = 'keywords'): string {
  const big = 'x'.repeat(stringBytes);
  return `name: Bomb\nimages:\n  - name: web\n    source: busybox\n    description: &big ${big}\n${key}:\n${'  - *big\n'.repeat(aliases)}`;
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('bounded YAML', () => {
  test('an alias bomb is refused before it is expanded, and memory stays bounded', () => {
    const expanded = aliasExpansions();
    expect(() => parseYamlBounded(aliasBomb(1_000_000, 480))).toThrow(
      new YamlInputError('the YAML document expands to more than 4194304 characters (through its aliases)'),
    );
    expect(expanded()).toBe(0);
  });

  test('nested aliases (a billion laughs) are refused', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++)
      lines.push(
        `${'abcdefghij'[i]}: &${'abcdefghij'[i]} [${Array(9)
          .fill(`*${'abcdefghij'[i - 1]}`)
          .join(',')}]`,
      );
    expect(() => parseYamlBounded(lines.join('\n'))).toThrow(/expands to more than|more than 1000 aliases/);
  });

  test('deep nesting, oversize text and a recursive alias are refused', () => {
    expect(() => parseYamlBounded(`${'['.repeat(5000)}${']'.repeat(5000)}`)).toThrow(YamlInputError);
    expect(() => parseYamlBounded('a: 1\n'.repeat(10) + 'x'.repeat(1024 * 1024))).toThrow('the YAML text is larger than 1048576 bytes');
    expect(() => parseYamlBounded('a: &a [*a]')).toThrow(YamlInputError);
  });

  test('ordinary documents with aliases still parse', () => {
    expect(parseYamlBounded('base: &b {x: 1}\nother: *b\n')).toEqual({ base: { x: 1 }, other: { x: 1 } });
  });

  test('many aliases that expand to little load: what aliases expand to is bounded, not how many there are', () => {
    // Defaults merged into nearly fifty services, the defaults merging defaults of their own
    // (Sentry's self-hosted compose file): the `yaml` library's alias count refused this.
    const sentry = parseYamlBounded(readFileSync(path.join(__dirname, '../fixtures/compose/sentry-aliases.yaml'), 'utf8'), {
      merge: true,
    }) as { services: Record<string, Record<string, unknown>> };
    expect(Object.keys(sentry.services)).toHaveLength(49);
    expect(sentry.services['taskscheduler']).toMatchObject({
      restart: 'unless-stopped',
      command: 'run taskworker-scheduler',
      healthcheck: { test: ['CMD-SHELL', 'rm /tmp/health.txt'], interval: '60s', timeout: '10s' },
      environment: { DEFAULT_CA_BUNDLE: '/etc/ssl/certs/ca-certificates.crt', REQUESTS_CA_BUNDLE: '/etc/ssl/certs/ca-certificates.crt' },
    });
    expect((sentry.services['taskscheduler'].depends_on as Record<string, unknown>).redis).toEqual({
      condition: 'service_healthy',
      restart: true,
    });
    // Four thousand aliases of one small anchor.
    const many = parseYamlBounded(`x: &x {a: 1}\nlist:\n${'  - *x\n'.repeat(4_000)}`) as { list: unknown[] };
    expect(many.list).toHaveLength(4_000);
    expect(many.list[3_999]).toEqual({ a: 1 });
  });

  test('a .pmx alias bomb in a template repo is listed in its load errors; the other templates load', async () => {
    const dir = makeGitRepo({ 'bomb.pmx': aliasBomb(1_000_000, 480), 'good.pmx': pmx('Good') });
    const expanded = aliasExpansions();
    const res = await t.request('POST', '/template_repos', { body: { name: dir } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expect.objectContaining({ name: dir, template_count: 1 }));
    expect(expanded()).toBe(0);
    const repos = await t.graphql<{ templateRepos: { name: string; loadErrors: unknown[] }[] }>(
      '{ templateRepos { name loadErrors { file message } } }',
    );
    const repo = repos.body.data.templateRepos.find((r) => r.name === dir);
    expect(repo?.loadErrors).toEqual([
      { file: 'bomb.pmx', message: 'not valid YAML: the YAML document expands to more than 4194304 characters (through its aliases)' },
    ]);
  });

  test('an alias bomb in compose_yaml is a 400 naming the field', async () => {
    const expanded = aliasExpansions();
    const compose = `x-big: &big ${'y'.repeat(900_000)}\nweb:\n  image: busybox\n  command:\n${'    - *big\n'.repeat(480)}`;
    const res = await t.request('POST', '/apps', { body: { compose_yaml: compose } });
    expect(res.body).toEqual({
      code: 400,
      message: 'compose_yaml: not valid YAML: the YAML document expands to more than 4194304 characters (through its aliases)',
      fields: 'compose_yaml',
    });
    expect(res.status).toBe(400);
    expect(expanded()).toBe(0);
  });
});

/**
 * How many documents with aliases the `yaml` library has turned into values since the call: where
 * aliases get expanded. Counted exactly; the process's RSS moved with garbage and whatever else ran,
 * and stayed flat when a bomb was expanded and only then refused (the copies share one string).
 */
const toJS = jest.spyOn(Document.prototype, 'toJS');
function aliasExpansions(): () => number {
  const from = toJS.mock.contexts.length;
  return () =>
    toJS.mock.contexts.slice(from).filter((doc) => {
      let aliases = 0;
      visit(doc as Document, { Alias: () => void aliases++ });
      return aliases > 0;
    }).length;
}
