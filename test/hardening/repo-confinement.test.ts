import { expect } from '@jest/globals';
import { chmodSync, existsSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runGit } from '../../src/catalog/repo-git';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Named } from '../helpers/bodies';
import { git, makeGitRepo, pmx } from '../helpers/git';

const REFUSED = (none: boolean) => ({
  code: 422,
  message: `name: local paths are template repos only under the directories an operator lists in TEMPLATE_REPO_ROOTS${none ? ' (none are)' : ''}`,
  fields: 'name',
});

/**
 * A write token could point a template repo at any directory of the server, learn which
 * exist, and write files anywhere through POST /templates/{id}/save; saving into a local git
 * repository ran its own core.fsmonitor command. Real git, real directories.
 */
describe('template repos on the server filesystem', () => {
  let closed: TestApp;
  let open: TestApp;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'repo-root-'));
    closed = await startTestApp({ TEMPLATE_REPO_ROOTS: '' });
    open = await startTestApp({ TEMPLATE_REPO_ROOTS: root });
  });
  afterAll(async () => {
    await closed.close();
    await open.close();
  });

  test('with no roots configured (the default) no local path is a repo, and the answer does not tell which exist', async () => {
    const inTmp = makeGitRepo({ 'a.pmx': pmx('A') });
    for (const name of ['/etc', '/root', closed.dataDir, '/does/not/exist', inTmp, `file://${inTmp}`, '../../etc']) {
      const res = await closed.request('POST', '/template_repos', { body: { name } });
      expect({ name, body: res.body }).toEqual({ name, body: REFUSED(true) });
    }
    expect((await closed.request('GET', '/template_repos')).body).toEqual([]);
  });

  test('with a root: repos inside it work; paths outside it, and symlinks out of it, do not', async () => {
    const inside = makeGitRepo({ 'a.pmx': pmx('Inside') }, root);
    expect((await open.request('POST', '/template_repos', { body: { name: inside } })).status).toBe(200);
    const link = path.join(root, 'etc-link');
    symlinkSync('/etc', link);
    for (const name of ['/etc', link, `${root}/../`, `${root}-sibling`]) {
      const res = await open.request('POST', '/template_repos', { body: { name } });
      expect({ name, body: res.body }).toEqual({ name, body: REFUSED(false) });
    }
  });

  test('saving into a local git repository runs none of its hooks or its core.fsmonitor command', async () => {
    const repo = makeGitRepo({ 'base.pmx': pmx('Base') }, root);
    const markers = ['fsmonitor', 'pre-commit', 'post-commit'].map((name) => path.join(root, `ran-${name}-${path.basename(repo)}`));
    const script = (marker: string) => `#!/bin/sh\ntouch ${marker}\n`;
    writeFileSync(path.join(repo, 'fsmonitor.sh'), script(markers[0]));
    chmodSync(path.join(repo, 'fsmonitor.sh'), 0o755);
    git(repo, 'config', 'core.fsmonitor', path.join(repo, 'fsmonitor.sh'));
    for (const [hook, marker] of [
      ['pre-commit', markers[1]],
      ['post-commit', markers[2]],
    ]) {
      writeFileSync(path.join(repo, '.git', 'hooks', hook), script(marker));
      chmodSync(path.join(repo, '.git', 'hooks', hook), 0o755);
    }
    expect((await open.request('POST', '/template_repos', { body: { name: repo } })).status).toBe(200);
    const template = (await open.request<Named[]>('GET', '/templates')).body.find((t) => t.name === 'Base')!;
    const saved = await open.request('POST', `/templates/${template.id}/save`, { body: { repo, file_name: 'copy' } });
    expect(saved.status).toBeLessThan(300);
    expect(existsSync(path.join(repo, 'copy.pmx'))).toBe(true);
    expect(git(repo, 'log', '-1', '--format=%s').trim()).toBe('Save template copy.pmx');
    expect(markers.filter((marker) => existsSync(marker))).toEqual([]);
  });

  test('git refuses the file transport unless the repo itself is local, and ext:: always', async () => {
    const repo = makeGitRepo({ 'a.pmx': pmx('A') });
    await expect(runGit(['ls-remote', '--', `file://${repo}`], { timeoutMs: 20_000 })).rejects.toMatchObject({
      stderr: expect.stringContaining("transport 'file' not allowed"),
    });
    await expect(runGit(['ls-remote', '--', `file://${repo}`], { timeoutMs: 20_000, allowFile: true })).resolves.toBeDefined();
    await expect(runGit(['ls-remote', '--', 'ext::sh -c true'], { timeoutMs: 20_000, allowFile: true })).rejects.toMatchObject({
      stderr: expect.stringContaining("transport 'ext' not allowed"),
    });
  });
});
