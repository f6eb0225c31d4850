import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DockerClient } from '../../src/engines/docker-client';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker, testDockerClient } from '../helpers/docker';
import { git } from '../helpers/git';
import { builtImages, cleanupEngine, instanceId, waitFor } from './fixtures';

const FIXTURE = path.join(__dirname, '../fixtures/compose/build-app');
const CONFORMANCE = path.join(__dirname, '../fixtures/compose-spec-conformance');

/** A real git repository: the build fixture at its root, the conformance secret-file test in a folder, and files that try to get out. */
function makeRepo(): { dir: string; outside: string } {
  const base = mkdtempSync(path.join(os.tmpdir(), 'compose-build-'));
  const dir = path.join(base, 'repo');
  cpSync(FIXTURE, dir, { recursive: true });
  mkdirSync(path.join(dir, 'secretfile'));
  writeFileSync(path.join(dir, 'secretfile/compose.yaml'), readFileSync(path.join(CONFORMANCE, 'simple_secretfile.yaml')));
  writeFileSync(path.join(dir, 'secretfile/test_secret.txt'), 'the conformance secret');
  // What a repo must not make the server read: a file beside the repo, reached by .., by an absolute path, by links.
  const outside = path.join(base, 'outside');
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'Dockerfile'), 'FROM platform-test/busybox:latest\n');
  writeFileSync(path.join(outside, 'host.env'), 'HOST_SECRET=do-not-read\n');
  mkdirSync(path.join(dir, 'escape/nodockerfile'), { recursive: true });
  writeFileSync(path.join(dir, 'escape/nodockerfile/README'), 'no Dockerfile here\n');
  mkdirSync(path.join(dir, 'escape/haslink'), { recursive: true });
  writeFileSync(path.join(dir, 'escape/haslink/Dockerfile'), 'FROM platform-test/busybox:latest\nCOPY . /x\n');
  symlinkSync(path.join(outside, 'host.env'), path.join(dir, 'escape/haslink/host.env'));
  symlinkSync(outside, path.join(dir, 'escape/linkdir'));
  symlinkSync(path.join(outside, 'host.env'), path.join(dir, 'escape/linked.env'));
  writeFileSync(
    path.join(dir, 'escape/compose.yaml'),
    [
      'services:',
      '  dotdot: {build: ../../outside}',
      '  absolute: {build: {context: /etc}}',
      '  linkdir: {build: ./linkdir}',
      '  haslink: {build: ./haslink}',
      '  remote: {build: "https://user:tarpass@example.com/context.tar.gz"}',
      '  nodockerfile: {build: ./nodockerfile}',
      '  envdotdot: {image: platform-test/busybox:latest, env_file: ../../outside/host.env}',
      '  envlink: {image: platform-test/busybox:latest, env_file: ./linked.env}',
      '  secret: {image: platform-test/busybox:latest, secrets: [s]}',
      'secrets:',
      '  s: {file: ./linked.env}',
      '',
    ].join('\n'),
  );
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'compose apps');
  return { dir, outside };
}

// Builds and starts of several containers take minutes on a loaded shared engine.
jest.setTimeout(240_000);

describeDocker('compose build:, env_file and file secrets from a template repo', () => {
  let t: TestApp;
  let docker: DockerClient;
  let instance: string;
  let repoId: number;

  beforeAll(async () => {
    t = await startTestApp();
    docker = testDockerClient();
    instance = await instanceId(t);
    const created = await t.request('POST', '/template_repos', { body: { name: makeRepo().dir } });
    expect(created.status).toBe(200);
    repoId = (created.body as { id: number }).id;
  });

  afterAll(async () => {
    await t?.close();
    await cleanupEngine(instance);
    await docker?.close();
  });

  test('build: makes the image from the repo (args, target, .dockerignore), with its output in the journal; env_file and a file secret reach the container; the image goes with the app', async () => {
    const created = await t.request('POST', '/apps', { body: { compose_repo_id: repoId, compose_file: 'compose.yaml' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'built',
      from: expect.stringMatching(/^Compose: .*\/repo\/compose\.yaml$/) as string,
      errors: [],
    });
    const id = (created.body as { id: number }).id;

    const journal = await waitFor(
      async () => (await t.request('GET', `/apps/${id}/journal`)).body as { service: string; stream: string; message: string }[],
      (lines) => Array.isArray(lines) && lines.some((l) => l.message === 's3cret-from-file'),
      120_000,
    );
    const output = journal.filter((l) => l.stream === 'stdout').map((l) => l.message);
    // The arg, the target stage (not the last one), the context less .dockerignore's *.tmp, env_file under environment, the secret.
    expect(output).toEqual(
      expect.arrayContaining([
        'hello from the build',
        'stage final',
        'kept.txt',
        'web.Dockerfile',
        'MODE=compose COLOR=blue',
        's3cret-from-file',
      ]),
    );
    expect(output).not.toContain('scratch.tmp');
    // The build's own output, before the container's, as stream "build" of the service.
    const build = journal.filter((l) => l.stream === 'build');
    expect(build.length).toBeGreaterThan(3);
    expect(build.every((l) => l.service === 'web')).toBe(true);
    expect(build.map((l) => l.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Step 1\/\d+ : FROM platform-test\/busybox:latest AS base$/)]),
    );
    expect(journal.findIndex((l) => l.stream === 'build')).toBeLessThan(journal.findIndex((l) => l.stream === 'stdout'));
    // Values of env files and secrets are never in the app's description of itself.
    expect(JSON.stringify((await t.request('GET', `/apps/${id}`)).body)).not.toContain('s3cret-from-file');

    const [service] = (await t.request('GET', `/apps/${id}/services`)).body as { from: string }[];
    expect(service.from).toMatch(/^platform-build\/built-web:[0-9a-f]{12}$/);
    expect(await builtImages(docker, instance)).toHaveLength(1);
    expect((await t.request('DELETE', `/apps/${id}`)).status).toBe(204);
    expect(await builtImages(docker, instance)).toEqual([]);
  });

  test('a failing RUN is the service’s error (and so the app’s), with the build’s log in the journal; the image built for the other service goes with the app', async () => {
    const created = await t.request('POST', '/apps', {
      body: { compose_repo_id: repoId, compose_file: 'compose.yaml', profiles: ['broken'] },
    });
    // Stored at once: the builds are the first step of starting the services.
    expect(created.status).toBe(200);
    const id = (created.body as { id: number }).id;
    const failure = expect.stringMatching(
      /^the build failed: The command '\/bin\/sh -c echo "about to fail" && exit 3' returned a non-zero code: 3$/,
    ) as string;
    const services = await waitFor(
      async () => (await t.request('GET', `/apps/${id}/services`)).body as { name: string; errors: unknown; sub_state: string | null }[],
      (list) =>
        Array.isArray(list) &&
        list.some((s) => s.name === 'broken' && s.errors !== null) &&
        list.some((s) => s.name === 'web' && s.sub_state === 'running'),
      180_000,
    );
    expect(services.find((s) => s.name === 'broken')).toMatchObject({
      errors: { code: 422, message: failure, fields: 'build' },
      load_state: 'not-found',
    });
    expect((await t.request('GET', `/apps/${id}`)).body).toMatchObject({
      errors: [{ message: expect.stringMatching(/^broken: the build failed: /) as string }],
    });
    const journal = (await t.request('GET', `/apps/${id}/journal`)).body as { service: string; stream: string; message: string }[];
    const broken = journal.filter((l) => l.service === 'broken').map((l) => l.message);
    expect(broken).toEqual(expect.arrayContaining(['about to fail']));
    expect(broken.at(-1)).toEqual(failure);
    expect(journal.filter((l) => l.service === 'broken').every((l) => l.stream === 'build')).toBe(true);
    // The engine removed the failed step's container (forcerm), and tagged nothing for it.
    const leftovers = await docker.request<{ Command: string }[]>('GET', '/containers/json', { query: { all: true } });
    expect(leftovers.filter((c) => c.Command.includes('about to fail'))).toEqual([]);
    expect(await builtImages(docker, instance)).toHaveLength(1);
    // A rebuild does not pull a name made for a build: the service says why it has no image.
    expect((await t.request('PUT', `/apps/${id}`)).status).toBe(204);
    const [again] = (
      (await t.request('GET', `/apps/${id}/services`)).body as { name: string; errors: { message: string } | null }[]
    ).filter((s) => s.name === 'broken');
    expect(again.errors?.message).toMatch(
      /^the image platform-build\/built-broken:[0-9a-f]{12} is built from "\.\/broken" when the app is made, and the engine does not have it/,
    );
    expect((await t.request('DELETE', `/apps/${id}`)).status).toBe(204);
    expect(await builtImages(docker, instance)).toEqual([]);
  });

  test('contexts, env files and secret files out of the repo, remote contexts and a missing Dockerfile: one 422 naming each', async () => {
    const refused = await t.request('POST', '/apps', { body: { compose_repo_id: repoId, compose_file: 'escape/compose.yaml' } });
    expect(refused.status).toBe(422);
    const body = refused.body as { fields: string; message: string };
    expect(body.fields).toBe('compose_yaml');
    const problems = body.message.replace(/^compose_yaml: /, '').split('; ');
    expect(problems).toEqual(
      expect.arrayContaining([
        'services.dotdot.build.context: "../../outside" leaves the template repo: only files of the repo are read',
        'services.absolute.build.context: "/etc" is an absolute path: give a path relative to the compose file, inside its repo',
        'services.linkdir.build.context: "./linkdir" is a symbolic link out of the template repo: only files of the repo are read',
        'services.haslink.build.context: "./haslink" has a symbolic link out of the template repo (host.env)',
        'services.remote.build.context: "https://example.com/context.tar.gz" is a remote context that is not a git repository (a tarball or a Dockerfile by URL), which is not fetched: give a git URL (https://host/repo.git#ref:dir) or a directory of the template repo',
        'services.nodockerfile.build.context: dockerfile "Dockerfile" does not exist in the build context "./nodockerfile"',
        'services.envdotdot.env_file: "../../outside/host.env" leaves the template repo: only files of the repo are read',
        'services.envlink.env_file: "./linked.env" is a symbolic link out of the template repo: only files of the repo are read',
        expect.stringMatching(/^secrets\.s: file "\.\/linked\.env" is a symbolic link out of the template repo/),
      ]),
    );
    expect(refused.text).not.toContain('do-not-read');
    expect(refused.text).not.toContain('tarpass');
    expect(await builtImages(docker, instance)).toEqual([]);
  });

  test('the conformance secret-file test from a repo folder: the file becomes the secret at its target', async () => {
    // The conformance images, made here from the local test image (no registry).
    const { Id } = await docker.createContainer(undefined, {
      Image: 'platform-test/busybox:latest',
      Labels: { 'platform.test': 'image' },
    } as never);
    await docker.request('POST', '/commit', {
      query: { container: Id, repo: 'composespec/conformance-tests-server', tag: 'latest' },
      body: { Cmd: ['sh', '-c', 'cat /volumes/test_secret.txt; echo; exec sleep 3600'] },
    });
    await docker.removeContainer(Id, { force: true });
    try {
      const created = await t.request('POST', '/apps', { body: { compose_repo_id: repoId, compose_file: 'secretfile/compose.yaml' } });
      expect(created.status).toBe(200);
      const app = created.body as { id: number; name: string };
      // Named after the compose file's folder (the file has no name:).
      expect(app.name).toBe('secretfile');
      const journal = await waitFor(
        async () => (await t.request('GET', `/apps/${app.id}/journal`)).body as { message: string }[],
        (lines) => Array.isArray(lines) && lines.some((l) => l.message === 'the conformance secret'),
        60_000,
      );
      expect(journal.map((l) => l.message)).toContain('the conformance secret');
      expect((await t.request('DELETE', `/apps/${app.id}`)).status).toBe(204);
    } finally {
      await docker.removeImage('composespec/conformance-tests-server:latest', { force: true }).catch(() => undefined);
    }
  });

  test('given inline, build: and env_file: are refused (422) naming the way to give the repo', async () => {
    const refused = await t.request('POST', '/apps', {
      body: { compose_yaml: readFileSync(path.join(FIXTURE, 'compose.yaml'), 'utf8') },
    });
    expect(refused.status).toBe(422);
    const message = (refused.body as { message: string }).message;
    expect(message).toContain(
      "services.web.build: an app's compose file given inline has no directory on the server: create the app from its template repo (compose_repo_id and compose_file); or give the image to run",
    );
    expect(message).toContain('services.web.env_file: an app');
    const both = await t.request('POST', '/apps', {
      body: { compose_yaml: 'services: {}', compose_repo_id: repoId, compose_file: 'compose.yaml' },
    });
    expect(both.status).toBe(400);
  });
});
