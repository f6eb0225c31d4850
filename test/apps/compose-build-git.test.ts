import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DockerClient } from '../../src/engines/docker-client';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker, testDockerClient } from '../helpers/docker';
import { commitFiles, git, makeGitRepo } from '../helpers/git';
import { builtImages, cleanupEngine, instanceId, waitFor } from './fixtures';

interface JournalLine {
  service: string;
  stream: string;
  message: string;
  cursor: string;
}

interface ServiceBody {
  name: string;
  from: string;
  sub_state: string | null;
  errors: { code: number; message: string; fields: string } | null;
}

const BASE = 'FROM platform-test/busybox:latest';

/**
 * A real git repository to build from, on the server's disk (so `file://`, which the test
 * config's TEMPLATE_REPO_ROOTS allows): tag v1 and branch main differ in what the image says,
 * and branch slow has a build that prints, sleeps and prints again.
 */
function makeContextRepo(): string {
  const dir = makeGitRepo({
    'app/Dockerfile': `${BASE}\nCOPY greeting.txt /greeting\nCMD ["sh", "-c", "cat /greeting; exec sleep 3600"]\n`,
    'app/greeting.txt': 'from git v1\n',
  });
  git(dir, 'tag', 'v1');
  commitFiles(dir, { 'app/greeting.txt': 'from git main\n' }, 'main says so');
  git(dir, 'checkout', '-q', '-b', 'slow');
  commitFiles(
    dir,
    {
      'slow/Dockerfile': `${BASE}\nRUN echo first-line && sleep 6 && echo second-line\nCMD ["sh", "-c", "echo slow-ran; exec sleep 3600"]\n`,
      'failing/Dockerfile': `${BASE}\nRUN echo "git build about to fail" && exit 4\n`,
    },
    'slow and failing builds',
  );
  git(dir, 'checkout', '-q', 'main');
  return dir;
}

// Builds and starts take minutes on a loaded shared engine.
jest.setTimeout(240_000);

describeDocker('compose build: from a git URL context', () => {
  let t: TestApp;
  let docker: DockerClient;
  let instance: string;
  let context: string;
  let repoId: number;

  beforeAll(async () => {
    t = await startTestApp();
    docker = testDockerClient();
    instance = await instanceId(t);
    context = `file://${makeContextRepo()}`;
    const missing = path.join(mkdtempSync(path.join(os.tmpdir(), 'no-repo-')), 'missing.git');
    const templates = makeGitRepo({
      'shop/compose.yaml': ['services:', '  web:', `    build: "${context}#v1:app"`, ''].join('\n'),
      'slow/compose.yaml': ['services:', '  slow:', `    build: {context: "${context}#slow:slow"}`, ''].join('\n'),
      'broken/compose.yaml': [
        'services:',
        `  badref: {build: "${context}#no-such-ref:app"}`,
        `  nodir: {build: "${context}#v1:no-such-dir"}`,
        `  gone: {build: "file://${missing}"}`,
        '  closed: {build: "http://127.0.0.1:9/repo.git"}',
        '  secret: {build: "https://builder:s3cretpw@127.0.0.1:9/private.git#main"}',
        '  outside: {build: "file:///etc/repo.git"}',
        '',
      ].join('\n'),
    });
    const created = await t.request('POST', '/template_repos', { body: { name: templates } });
    expect(created.status).toBe(200);
    repoId = (created.body as { id: number }).id;
  });

  afterAll(async () => {
    await t?.close();
    await cleanupEngine(instance);
    await docker?.close();
  });

  const journal = async (id: number, cursor?: string) => {
    const response = await t.request<JournalLine[]>('GET', `/apps/${id}/journal${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (response.status !== 200) throw new Error(`journal: ${response.status} ${response.text}`);
    return response.body;
  };

  test('a compose file of a template repo whose context is a git URL (file://, a tag and a folder) makes and runs the image', async () => {
    const created = await t.request('POST', '/apps', { body: { compose_repo_id: repoId, compose_file: 'shop/compose.yaml' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'shop', errors: [] });
    const id = (created.body as { id: number }).id;
    const lines = await waitFor(
      () => journal(id),
      (l) => Array.isArray(l) && l.some((e) => e.message === 'from git v1'),
      180_000,
    );
    // The tag, not the branch's head; the build's own lines first.
    expect(lines.map((l) => l.message)).not.toContain('from git main');
    const build = lines.filter((l) => l.stream === 'build');
    expect(build.map((l) => l.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Step 1\/\d+ : FROM platform-test\/busybox:latest$/),
        expect.stringMatching(/^Step 2\/\d+ : COPY greeting.txt \/greeting$/),
      ]),
    );
    expect(lines.findIndex((l) => l.stream === 'build')).toBeLessThan(lines.findIndex((l) => l.stream === 'stdout'));
    const [web] = (await t.request<ServiceBody[]>('GET', `/apps/${id}/services`)).body;
    expect(web).toMatchObject({
      name: 'web',
      from: expect.stringMatching(/^platform-build\/app-web:[0-9a-f]{12}$/) as string,
      errors: null,
    });
    expect(await builtImages(docker, instance)).toHaveLength(1);
    expect((await t.request('DELETE', `/apps/${id}`)).status).toBe(204);
    expect(await builtImages(docker, instance)).toEqual([]);
  });

  test('a compose file given inline may build from a git URL (it needs no directory): the branch named', async () => {
    const created = await t.request('POST', '/apps', {
      body: { compose_yaml: ['name: inline', 'services:', '  web:', '    build:', `      context: "${context}#main:app"`, ''].join('\n') },
    });
    expect(created.status).toBe(200);
    const id = (created.body as { id: number }).id;
    await waitFor(
      () => journal(id),
      (l) => Array.isArray(l) && l.some((e) => e.message === 'from git main'),
      180_000,
    );
    expect((await t.request('DELETE', `/apps/${id}`)).status).toBe(204);
  });

  test('an unknown ref, a missing folder, a missing or unreachable repository and a URL outside the policy: one 422 naming each service, no credentials, nothing stored', async () => {
    const before = (await t.request('GET', '/apps')).body;
    const refused = await t.request('POST', '/apps', { body: { compose_repo_id: repoId, compose_file: 'broken/compose.yaml' } });
    expect(refused.status).toBe(422);
    const body = refused.body as { code: number; message: string; fields: string };
    expect(body.fields).toBe('compose_yaml');
    const problems = body.message.replace(/^compose_yaml: /, '').split('; ');
    expect(problems).toEqual([
      expect.stringMatching(
        new RegExp(
          `^services\\.badref\\.build: the git context ".*#no-such-ref:app" cannot be fetched: git fetch of .* failed: couldn't find remote ref no-such-ref$`,
        ),
      ),
      `services.nodir.build: in the git context "${context}#v1:no-such-dir": "no-such-dir" does not exist in the git repository`,
      expect.stringMatching(/^services\.gone\.build: the git context "file:\/\/.*missing\.git" cannot be fetched: repository not found: /),
      expect.stringMatching(
        /^services\.closed\.build: the git context "http:\/\/127\.0\.0\.1:9\/repo\.git" cannot be fetched: git fetch of http:\/\/127\.0\.0\.1:9\/repo\.git failed: .*(Connection refused|Failed to connect)/,
      ),
      expect.stringMatching(/^services\.secret\.build: the git context "https:\/\/127\.0\.0\.1:9\/private\.git#main" cannot be fetched: /),
      'services.outside.build: the git context "file:///etc/repo.git" cannot be fetched: local paths are template repos only under the directories an operator lists in TEMPLATE_REPO_ROOTS',
    ]);
    expect(refused.text).not.toContain('s3cretpw');
    expect(refused.text).not.toContain('builder');
    expect((await t.request('GET', '/apps')).body).toEqual(before);
    expect(await builtImages(docker, instance)).toEqual([]);
  });

  test('the journal shows the build’s lines while it runs (REST with a cursor, and GraphQL), the service starting meanwhile', async () => {
    const created = await t.request('POST', '/apps', { body: { compose_repo_id: repoId, compose_file: 'slow/compose.yaml' } });
    expect(created.status).toBe(200);
    const id = (created.body as { id: number }).id;
    // Polled during the build: the line before the sleep is there, the one after it is not yet.
    const seen: JournalLine[] = [];
    const during = await waitFor(
      async () => {
        const next = await journal(id, seen.at(-1)?.cursor);
        seen.push(...next);
        return seen.map((l) => l.message);
      },
      (messages) => messages.includes('first-line'),
      120_000,
    );
    expect(during).not.toContain('second-line');
    const [slow] = (await t.request<ServiceBody[]>('GET', `/apps/${id}/services`)).body;
    expect(slow).toMatchObject({ name: 'slow', sub_state: 'start-pre', errors: null });
    const gql = await t.graphql<{ appJournal: { stream: string; message: string }[] }>(
      'query ($id: Int!) { appJournal(appId: $id) { stream message } }',
      { id },
    );
    expect(gql.body.data.appJournal).toEqual(expect.arrayContaining([{ stream: 'build', message: 'first-line' }]));
    expect(gql.body.data.appJournal.map((l) => l.message)).not.toContain('slow-ran');
    // Then the rest of the build and the container, each line once through the cursor.
    await waitFor(
      async () => {
        seen.push(...(await journal(id, seen.at(-1)?.cursor)));
        return seen.map((l) => l.message);
      },
      (messages) => messages.includes('slow-ran'),
      120_000,
    );
    const messages = seen.map((l) => l.message);
    expect(messages.indexOf('first-line')).toBeLessThan(messages.indexOf('second-line'));
    expect(messages.filter((m) => m === 'first-line')).toHaveLength(1);
    expect(new Set(seen.map((l) => l.cursor)).size).toBe(seen.length);
    expect((await t.request('DELETE', `/apps/${id}`)).status).toBe(204);
  });

  test('a failing build from git is the service’s error, its log in the journal', async () => {
    const created = await t.request('POST', '/apps', {
      body: { compose_yaml: ['name: failing', 'services:', `  fails: {build: "${context}#slow:failing"}`, ''].join('\n') },
    });
    expect(created.status).toBe(200);
    const id = (created.body as { id: number }).id;
    const [fails] = await waitFor(
      async () => (await t.request<ServiceBody[]>('GET', `/apps/${id}/services`)).body,
      (list) => Array.isArray(list) && list[0]?.errors !== null,
      120_000,
    );
    const message = `the build failed: The command '/bin/sh -c echo "git build about to fail" && exit 4' returned a non-zero code: 4`;
    expect(fails.errors).toEqual({ code: 422, message, fields: 'build' });
    expect((await t.request('GET', `/apps/${id}`)).body).toMatchObject({ errors: [{ message: `fails: ${message}` }] });
    const lines = await journal(id);
    expect(lines.map((l) => [l.stream, l.message])).toEqual(
      expect.arrayContaining([
        ['build', 'git build about to fail'],
        ['build', message],
      ]),
    );
    // The service's own journal has its build too.
    const serviceId = (fails as ServiceBody & { id: number }).id;
    const own = (await t.request<JournalLine[]>('GET', `/apps/${id}/services/${serviceId}/journal`)).body;
    expect(own.map((l) => l.message)).toEqual(lines.map((l) => l.message));
    expect((await t.request('DELETE', `/apps/${id}`)).status).toBe(204);
  });
});
