import { rmSync } from 'node:fs';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Named } from '../helpers/bodies';
import { makeGitRepo } from '../helpers/git';

/**
 * The two rules of "Search: how templates rank" that the judged set of the official templates
 * does not decide: where a word is found weighs more than how often, and a template matching
 * more of the query's words comes first.
 */
const pmx = (name: string, fields: Record<string, string>) =>
  [
    `name: ${name}`,
    ...Object.entries(fields).map(([key, value]) => `${key}: ${JSON.stringify(value)}`),
    'images:',
    '  - name: app',
    '    source: example/app:1',
  ].join('\n');

let t: TestApp;
let repo: string;

beforeAll(async () => {
  t = await startTestApp();
  // Templates only: Docker Hub (registry 0) cannot be reached from here.
  expect((await t.request('PATCH', '/registries/0', { body: { enabled: false } })).status).toBe(204);
  repo = makeGitRepo({
    'falcon.pmx': pmx('Falcon', { description: 'A message queue' }),
    'watcher.pmx': pmx('Bird watcher', {
      description: 'Counts birds',
      documentation: 'falcon sightings, falcon nests, falcon counts, falcon photos, falcon maps, falcon alerts',
    }),
    'heron.pmx': pmx('Heron', { keywords: 'heron, heron tools', description: 'Heron heron heron' }),
    'lakeside.pmx': pmx('Lakeside', { description: 'Holiday homes', documentation: 'You may see a heron by the lake' }),
  });
  expect((await t.request('POST', '/template_repos', { body: { name: repo } })).body).toMatchObject({ template_count: 4 });
});
afterAll(async () => {
  await t.close();
  rmSync(repo, { recursive: true, force: true });
});

const search = async (q: string) => (await t.request<Named[]>('GET', `/search?q=${encodeURIComponent(q)}`)).body.map((hit) => hit.name);

test('a word in the name ranks above the same word said six times in the documentation', async () => {
  expect(await search('falcon')).toEqual(['Falcon', 'Bird watcher']);
});

test('a template matching both words, in its documentation, comes before one matching one word in its name and keywords', async () => {
  expect(await search('heron lake')).toEqual(['Lakeside', 'Heron']);
});
