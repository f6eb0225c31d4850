import { expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';
import { makeGitRepo } from '../helpers/git';

const MAX = 64 * 1024;

/**
 * README "Compose files of a template repo": a build context over APP_BUILD_CONTEXT_MAX_BYTES is
 * a 413 naming the service, and nothing is stored. The context is packed in the create request,
 * before the engine is asked anything: there is none here, and none is needed.
 */
describe('a build context over APP_BUILD_CONTEXT_MAX_BYTES is a 413', () => {
  let t: TestApp;
  let repoId: number;
  let contextRepo: string;
  // Random bytes as hex: what a tar of it holds cannot be smaller than the limit.
  const blob = randomBytes(MAX).toString('hex');
  const dockerfile = 'FROM platform-test/busybox:latest\nCOPY . /ctx\n';

  beforeAll(async () => {
    t = await startTestApp({ DOCKER_HOST: 'unix:///nonexistent/docker.sock', APP_BUILD_CONTEXT_MAX_BYTES: String(MAX) });
    const compose = (context: string) => `services:\n  web:\n    image: platform-test/built:1\n    build: ${context}\n`;
    const repo = makeGitRepo({
      'big/compose.yaml': compose('./ctx'),
      'big/ctx/Dockerfile': dockerfile,
      'big/ctx/blob.txt': blob,
      'ignored/compose.yaml': compose('./ctx'),
      'ignored/ctx/Dockerfile': dockerfile,
      'ignored/ctx/blob.txt': blob,
      'ignored/ctx/.dockerignore': 'blob.txt\n',
    });
    contextRepo = makeGitRepo({ 'ctx/Dockerfile': dockerfile, 'ctx/blob.txt': blob, 'small/Dockerfile': dockerfile });
    const created = await t.request<Identified>('POST', '/template_repos', { body: { name: repo } });
    expect(created.status).toBe(200);
    repoId = created.body.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const apps = async () => (await t.request<Identified[]>('GET', '/apps')).body;

  test("a directory of the repo: 413 naming the service's build, and no app", async () => {
    const res = await t.request('POST', '/apps', { body: { compose_repo_id: repoId, compose_file: 'big/compose.yaml' } });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 413,
      body: {
        code: 413,
        message: `services.web.build: the build context is larger than ${MAX} bytes (APP_BUILD_CONTEXT_MAX_BYTES)`,
        fields: 'build',
      },
    });
    expect(await apps()).toEqual([]);
  });

  test('a git context (file:// under the roots): the same 413', async () => {
    const compose = `services:\n  web:\n    image: platform-test/built:1\n    build: file://${contextRepo}#main:ctx\n`;
    const res = await t.request('POST', '/apps', { body: { compose_yaml: compose } });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 413,
      body: {
        code: 413,
        message: `services.web.build: the build context is larger than ${MAX} bytes (APP_BUILD_CONTEXT_MAX_BYTES)`,
        fields: 'build',
      },
    });
    expect(await apps()).toEqual([]);
  });

  test('what .dockerignore leaves out is not sent, so not counted: the same files less the blob are taken', async () => {
    const res = await t.request<Identified>('POST', '/apps', { body: { compose_repo_id: repoId, compose_file: 'ignored/compose.yaml' } });
    expect(res.status).toBe(200);
    const small = await t.request<Identified>('POST', '/apps', {
      body: { compose_yaml: `services:\n  web:\n    image: platform-test/built:2\n    build: file://${contextRepo}#main:small\n` },
    });
    expect(small.status).toBe(200);
    expect((await apps()).map((a) => a.id).sort()).toEqual([res.body.id, small.body.id].sort());
  });
});
