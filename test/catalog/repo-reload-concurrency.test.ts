import { expect } from '@jest/globals';
import { rmSync } from 'node:fs';
import { startTestApp, type TestApp } from '../helpers/app';
import { commitFiles, makeGitRepo, pmx } from '../helpers/git';

/**
 * Reloads of one template repo at once (two clients, or two replicas behind a balancer) wait for
 * each other on the repo's row: each applies the repo as it is, none fails. The row lock was
 * taken with MikroORM's lock mode 4, which is PESSIMISTIC_PARTIAL_WRITE (`FOR UPDATE SKIP
 * LOCKED`), not PESSIMISTIC_WRITE: a reload that met a locked row did not find it and answered 500.
 */
describe('concurrent reloads of one template repo', () => {
  let t: TestApp;
  let repoDir: string;
  beforeAll(async () => {
    t = await startTestApp();
    repoDir = makeGitRepo({ 'a.pmx': pmx('Alpha') });
  });
  afterAll(async () => {
    await t?.close();
    if (repoDir) rmSync(repoDir, { recursive: true, force: true });
  });

  test('three at once all answer 200 with the repo as it is, and load each template once', async () => {
    const repo = await t.request<{ id: number }>('POST', '/template_repos', { body: { name: repoDir } });
    commitFiles(repoDir, { 'b.pmx': pmx('Beta') });
    const reloads = await Promise.all(
      [0, 1, 2].map(() => t.request<{ template_count: number }>('POST', `/template_repos/${repo.body.id}`)),
    );
    expect(reloads.map((r) => [r.status, r.body.template_count])).toEqual([
      [200, 2],
      [200, 2],
      [200, 2],
    ]);
    const names = (await t.request<{ name: string }[]>('GET', '/templates')).body.map((tpl) => tpl.name).sort();
    expect(names).toEqual(['Alpha', 'Beta']);
  });
});
