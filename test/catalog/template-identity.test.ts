import { expect } from '@jest/globals';
import { rmSync } from 'node:fs';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified, RepoBody } from '../helpers/bodies';
import { commitFiles, git, makeGitRepo, pmx } from '../helpers/git';

/**
 * A repo template is identified by its repo and file path: reloads keep its id (and its images'
 * ids by position); new files add templates, deleted files remove theirs; ids are never reused.
 * The engine is unreachable on purpose (DOCKER_HOST points nowhere): an app is still stored, which
 * is all POST /templates {app_id} needs.
 */
let t: TestApp;
let dir: string;
let repoId: number;

type Row = { id: number; name: string; description: string; images: { id: number; name: string }[] };
const byName = async () => {
  const rows = (await t.request('GET', '/templates')).body as Row[];
  return Object.fromEntries(rows.map((r) => [r.name, r]));
};

beforeAll(async () => {
  t = await startTestApp({ DOCKER_HOST: 'unix:///nonexistent/docker.sock' });
  dir = makeGitRepo({ 'alpha.pmx': pmx('Alpha'), 'nested/beta.pmx': pmx('Beta'), 'gamma.pmx': pmx('Gamma') });
  const res = await t.request<RepoBody>('POST', '/template_repos', { body: { name: dir } });
  expect(res.body).toMatchObject({ template_count: 3, load_errors: [] });
  repoId = res.body.id;
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

test('reloading an unchanged repo keeps every template id and image id', async () => {
  const before = await byName();
  const res = await t.request('POST', `/template_repos/${repoId}`);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ id: repoId, template_count: 3, load_errors: [] });
  expect(await byName()).toEqual(
    Object.fromEntries(Object.entries(before).map(([name, row]) => [name, { ...row, updated_at: expect.any(String) }])),
  );
  for (const row of Object.values(before)) expect((await t.request('GET', `/templates/${row.id}`)).status).toBe(200);
});

test('one file edited, one added, one removed: ids kept, one new, one gone', async () => {
  const before = await byName();
  const edited = pmx('Alpha', {
    images: [
      '  - name: web',
      '    source: nginx:1',
      '  - name: cache',
      '    source: redis:7',
      '  - name: extra',
      '    source: redis:7',
    ].join('\n'),
  }).replace('Alpha description', 'Alpha, edited');
  commitFiles(dir, { 'alpha.pmx': edited, 'delta.pmx': pmx('Delta') });
  git(dir, 'rm', '-q', 'gamma.pmx');
  git(dir, 'commit', '-qm', 'edit, add, remove');

  const res = await t.request('POST', `/template_repos/${repoId}`);
  expect(res.body).toMatchObject({ template_count: 3, load_errors: [] });
  const after = await byName();
  expect(Object.keys(after).sort()).toEqual(['Alpha', 'Beta', 'Delta']);
  // Edited in place: same id; its first two images keep their ids (by position), the third is new.
  expect(after.Alpha.id).toBe(before.Alpha.id);
  expect(after.Alpha.description).toBe('Alpha, edited');
  expect(after.Alpha.images.map((i) => i.name)).toEqual(['web', 'cache', 'extra']);
  expect(after.Alpha.images.slice(0, 2).map((i) => i.id)).toEqual(before.Alpha.images.map((i) => i.id));
  expect(after.Alpha.images[2].id).toBeGreaterThan(Math.max(...Object.values(before).flatMap((r) => r.images.map((i) => i.id))));
  // Untouched: everything equal.
  expect(after.Beta).toEqual({ ...before.Beta, updated_at: expect.any(String) });
  // Removed: its id answers 404; added: a fresh id above every earlier one.
  expect((await t.request('GET', `/templates/${before.Gamma.id}`)).status).toBe(404);
  expect(after.Delta.id).toBeGreaterThan(Math.max(...Object.values(before).map((r) => r.id)));

  // Shrinking an edited template drops its extra images.
  commitFiles(dir, { 'alpha.pmx': pmx('Alpha') });
  await t.request('POST', `/template_repos/${repoId}`);
  const shrunk = (await byName()).Alpha;
  expect(shrunk.id).toBe(before.Alpha.id);
  expect(shrunk.images.map((i) => i.id)).toEqual(after.Alpha.images.slice(0, 2).map((i) => i.id));
});

test('a file that stops loading removes its template; fixed, it comes back with a new id', async () => {
  const before = await byName();
  commitFiles(dir, { 'nested/beta.pmx': 'name: Beta\nimages:\n- name: web\n  source: nginx\n  links: [{service: nope, alias: n}]\n' });
  const res = await t.request('POST', `/template_repos/${repoId}`);
  expect(res.body).toMatchObject({
    template_count: 2,
    load_errors: [
      { file: 'nested/beta.pmx', line: 5, message: 'images[0].links[0]: linked service "nope" is not an image of this template' },
    ],
  });
  expect((await t.request('GET', `/templates/${before.Beta.id}`)).status).toBe(404);
  commitFiles(dir, { 'nested/beta.pmx': pmx('Beta') });
  expect((await t.request('POST', `/template_repos/${repoId}`)).body).toMatchObject({ template_count: 3, load_errors: [] });
  expect((await byName()).Beta.id).toBeGreaterThan(before.Beta.id);
});

test('ids of templates made by POST /templates are never reused', async () => {
  const app = await t.request<Identified>('POST', `/apps?template_id=${(await byName()).Delta.id}`);
  expect(app.status).toBe(200);
  const first = await t.request<Identified>('POST', '/templates', { body: { app_id: app.body.id, name: 'from app' } });
  expect(first.status).toBe(201);
  expect((await t.request('DELETE', `/templates/${first.body.id}`)).status).toBe(204);
  const second = await t.request<Identified>('POST', '/templates', { body: { app_id: app.body.id, name: 'from app' } });
  expect(second.body.id).toBeGreaterThan(first.body.id);
  // A reload neither touches it nor reuses the deleted id.
  await t.request('POST', `/template_repos/${repoId}`);
  const ids = Object.values(await byName()).map((r) => r.id);
  expect(ids).toContain(second.body.id);
  expect(ids).not.toContain(first.body.id);
});
