import { expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseTemplateFile } from '../../src/catalog/template-file';
import { startTestApp, type TestApp } from '../helpers/app';
import type { AppBody, RepoBody, ServiceBody, TemplateBody } from '../helpers/bodies';
import { describeDocker, TEST_IMAGE } from '../helpers/docker';
import { cleanupEngine, instanceId, suffix, waitFor } from './fixtures';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

describeDocker('templates from apps; compose and image apps', () => {
  let t: TestApp;
  let instance: string;
  let dir: string;
  let remote: string;
  const sfx = suffix();
  let appId: number;

  beforeAll(async () => {
    t = await startTestApp();
    instance = await instanceId(t);
    dir = mkdtempSync(path.join(os.tmpdir(), 'platform-apps-tpl-'));
    // A bare remote with one commit, as a hosted repository would be.
    const seed = path.join(dir, 'seed');
    execFileSync('git', ['init', '-q', '-b', 'main', seed]);
    writeFileSync(path.join(seed, 'README.md'), 'templates\n');
    git(seed, 'add', '.');
    git(seed, 'commit', '-qm', 'init');
    remote = path.join(dir, 'remote.git');
    execFileSync('git', ['clone', '-q', '--bare', seed, remote]);
  });

  afterAll(async () => {
    await t?.close();
    await cleanupEngine(instance);
    rmSync(dir, { recursive: true, force: true });
  });

  test('POST /apps with compose_yaml: ports, links, environment and command from the file', async () => {
    const res = await t.request<AppBody>('POST', '/apps', {
      body: {
        compose_yaml: [
          `web-${sfx}:`,
          `  image: ${TEST_IMAGE}`,
          `  links: ["db-${sfx}:database"]`,
          '  ports: ["127.0.0.1::80/tcp"]',
          '  environment: ["MODE=compose"]',
          '  command: sleep 3600',
          '  expose: ["8080"]',
          `db-${sfx}:`,
          `  image: ${TEST_IMAGE}`,
          '  environment: {ROLE: db}',
          '  command: sleep 3600',
          '  volumes: ["/var/lib/data"]',
        ].join('\n'),
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'App From Compose Yaml',
      from: 'Template: App From Compose Yaml',
      errors: [],
      documentation: null,
      categories: [],
    });
    appId = res.body.id;
    const list = await waitFor(
      async () => (await t.request<ServiceBody[]>('GET', `/apps/${appId}/services`)).body,
      (l) => l.every((s) => s.sub_state === 'running'),
    );
    expect(
      list.map((s) => ({
        name: s.name,
        ports: s.ports,
        links: s.links,
        environment: s.environment,
        expose: s.expose,
        volumes: s.volumes,
        command: s.command,
      })),
    ).toEqual([
      {
        name: `web-${sfx}`,
        ports: [{ host_interface: '127.0.0.1', host_port: null, container_port: 80, proto: 'TCP' }],
        links: [{ id: String(list[1].id), service: `db-${sfx}`, alias: 'database' }],
        environment: [{ variable: 'MODE', value: 'compose', required: null }],
        expose: ['8080'],
        volumes: [],
        command: 'sleep 3600',
      },
      {
        name: `db-${sfx}`,
        ports: [],
        links: [],
        environment: [{ variable: 'ROLE', value: 'db', required: null }],
        expose: [],
        volumes: [{ host_path: null, container_path: '/var/lib/data' }],
        command: 'sleep 3600',
      },
    ]);
    // The engine chose the host port.
    expect(list[0].container_status.ports).toEqual([
      { container_port: 80, proto: 'tcp', host_interface: '127.0.0.1', host_port: expect.any(Number) },
      { container_port: 8080, proto: 'tcp', host_interface: null, host_port: null },
    ]);
    const bad = await t.request('POST', '/apps', { body: { compose_yaml: 'web:\n  build: .\n' } });
    expect(bad.body).toEqual({ code: 422, message: expect.stringContaining('build'), fields: 'compose_yaml' });
  });

  test('POST /apps with image: one service named after the image', async () => {
    const res = await t.request<AppBody>('POST', '/apps', { body: { image: TEST_IMAGE, registry_id: 0 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: `${TEST_IMAGE.replace('/', '_')}_image`,
      from: `Template: ${TEST_IMAGE}_image`,
      errors: [],
      documentation: null,
      categories: [],
    });
    const [service] = await waitFor(
      async () => (await t.request<ServiceBody[]>('GET', `/apps/${res.body.id}/services`)).body,
      (l) => l[0].sub_state === 'exited',
    );
    // The image's default command is a shell with no input: it exits at once, successfully.
    expect(service).toMatchObject({
      name: 'platform-test_busybox_latest',
      from: TEST_IMAGE,
      load_state: 'loaded',
      active_state: 'inactive',
      sub_state: 'exited',
      errors: null,
    });
    expect((await t.request('DELETE', `/apps/${res.body.id}`)).status).toBe(204);
  });

  test('POST /apps/:id/template: a .pmx that loads back into an equal template', async () => {
    const meta = {
      description: 'made from an app',
      keywords: 'compose, test',
      type: 'nodejs',
      documentation: 'How to run it: nothing to do, it runs by itself.',
      authors: ['me'],
    };
    const res = await t.request<{ template: string }>('POST', `/apps/${appId}/template`, { body: meta });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['template']);
    expect(res.body.template.startsWith('---\nname: App From Compose Yaml\n')).toBe(true);
    const services = (await t.request<ServiceBody[]>('GET', `/apps/${appId}/services`)).body;
    expect(parseTemplateFile(res.body.template, 'preview.pmx')).toEqual({
      name: 'App From Compose Yaml',
      description: 'made from an app',
      keywords: 'compose, test',
      type: 'nodejs',
      documentation: 'How to run it: nothing to do, it runs by itself.',
      authors: [],
      source: null,
      images: services.map((s) => ({
        name: s.name,
        source: TEST_IMAGE,
        description: null,
        category: null,
        type: 'Default',
        command: 'sleep 3600',
        restart_policy: null,
        expose: s.expose,
        ports: s.ports.map((p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== null))),
        links: s.links.map((l) => ({ service: l.service, alias: l.alias })),
        environment: s.environment.map((e) => ({ variable: e.variable, value: e.value })),
        volumes: s.volumes.map((v) => ({ container_path: v.container_path })),
        volumes_from: [],
        deployment: null,
      })),
    });
    expect((await t.request('POST', '/apps/9999/template')).status).toBe(404);
  });

  test("POST /templates from an app, save it to a git repo, and the repo's reload shows it", async () => {
    const created = await t.request<TemplateBody>('POST', '/templates', {
      body: { app_id: appId, name: `saved-${sfx}`, description: 'saved from an app', keywords: 'saved', documentation: 'Docs.' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: `saved-${sfx}`,
      description: 'saved from an app',
      keywords: 'saved',
      source: null,
      type: 'Default',
      image_count: 2,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      documentation: 'Docs.',
      images: [
        expect.objectContaining({ name: `web-${sfx}`, source: TEST_IMAGE, links: [{ service: `db-${sfx}`, alias: 'database' }] }),
        expect.objectContaining({
          name: `db-${sfx}`,
          source: TEST_IMAGE,
          environment: [{ variable: 'ROLE', value: 'db', required: null }],
        }),
      ],
    });

    const unknown = await t.request('POST', `/templates/${created.body.id}/save`, { body: { repo: remote } });
    expect(unknown.body).toEqual({ code: 422, message: expect.stringContaining('not a template repo'), fields: 'repo' });

    const repo = await t.request<RepoBody>('POST', '/template_repos', { body: { name: remote } });
    expect(repo.body).toMatchObject({ name: remote, template_count: 0 });
    const saved = await t.request('POST', `/templates/${created.body.id}/save`, {
      body: { repo: remote, name: `my-app-${sfx}`, description: 'as saved' },
    });
    expect(saved.status).toBe(204);
    expect(git(remote, 'log', '-1', '--format=%s', 'main').trim()).toBe(`Save template my-app-${sfx}.pmx`);

    const reloaded = await t.request('POST', `/template_repos/${repo.body.id}`);
    expect(reloaded.body).toMatchObject({ template_count: 1 });
    const templates = (await t.request<TemplateBody[]>('GET', '/templates')).body;
    const loaded = templates.find((tpl) => tpl.source === remote);
    expect(loaded).toEqual({
      ...created.body,
      id: expect.any(Number),
      name: `my-app-${sfx}`,
      description: 'as saved',
      source: remote,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      images: created.body.images.map((i) => ({ ...i, id: expect.any(Number) })),
    });

    // A remote that refuses the push: 502 with its reason.
    const hook = path.join(remote, 'hooks', 'pre-receive');
    writeFileSync(hook, '#!/bin/sh\necho "templates are frozen" >&2\nexit 1\n');
    chmodSync(hook, 0o755);
    const refused = await t.request('POST', `/templates/${created.body.id}/save`, { body: { repo: remote, name: `other-${sfx}` } });
    expect(refused.body).toEqual({ code: 502, message: expect.stringMatching(/rejected.*templates are frozen/), fields: '' });
    expect((await t.request('POST', '/templates/9999/save', { body: { repo: remote } })).status).toBe(404);
    expect((await t.request('POST', `/templates/${created.body.id}/save`, { body: {} })).body).toEqual({
      code: 400,
      message: expect.any(String),
      fields: 'repo',
    });
  });
});
