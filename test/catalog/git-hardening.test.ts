import { expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { withGitRef } from '../../src/catalog/repo-source';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Named } from '../helpers/bodies';
import { git, makeGitRepo, pmx } from '../helpers/git';

/**
 * README "Security", git: no system or user configuration, no credential helpers, no submodules,
 * only the git, http, https and ssh transports (file only for a local repo under the roots), and,
 * here, no credential of a URL sent to a host a redirect names. Real git, repositories and HTTP
 * servers made by the test.
 *
 * The service runs in this process, so its git inherits this process's environment: for the
 * whole file that environment is hostile, as an operator's machine may be. A user config (HOME,
 * XDG_CONFIG_HOME) and a system config (GIT_CONFIG_SYSTEM) name a credential helper and ask for
 * submodules; GIT_CONFIG_COUNT (config given through the environment, which no config file setting
 * turns off) names a credential helper too, and rewrites two hosts' URLs to the ext:: and file
 * transports.
 */
describe('git runs hardened against configuration, submodules, transports and redirects', () => {
  let t: TestApp;
  let root: string;
  let markers: string;
  const saved: Record<string, string | undefined> = {};
  const servers: Server[] = [];
  let superRepo: string;
  let localTarget: string;

  const marker = (name: string) => path.join(markers, name);
  const ran = () => readdirSync(markers).sort();

  async function listen(server: Server, host = '127.0.0.1'): Promise<string> {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    return `http://${host}:${(server.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'git-hardening-'));
    markers = path.join(root, 'markers');
    mkdirSync(markers);

    // Repositories first, with this process's git as it was.
    const sub = makeGitRepo({ 'sub.pmx': pmx('From Submodule') }, root);
    superRepo = makeGitRepo({ 'main.pmx': pmx('Main') }, root);
    git(superRepo, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', sub, 'nested');
    git(superRepo, 'commit', '-q', '-m', 'a submodule');
    localTarget = makeGitRepo({ 'local.pmx': pmx('Read Through file') }, root);

    // A credential helper that leaves a marker and offers a password.
    const helper = (name: string) => {
      const file = path.join(root, `helper-${name}.sh`);
      writeFileSync(file, `#!/bin/sh\ntouch ${marker(`helper-${name}`)}\necho username=operator\necho password=operator-secret\n`);
      chmodSync(file, 0o755);
      return file;
    };
    const home = path.join(root, 'home');
    mkdirSync(path.join(home, '.config', 'git'), { recursive: true });
    const config = (name: string) =>
      `[credential]\n\thelper = ${helper(name)}\n[submodule]\n\trecurse = true\n[fetch]\n\trecurseSubmodules = true\n[protocol "file"]\n\tallow = always\n`;
    writeFileSync(path.join(home, '.gitconfig'), config('home'));
    writeFileSync(path.join(home, '.config', 'git', 'config'), config('xdg'));
    writeFileSync(path.join(root, 'system-gitconfig'), config('system'));
    const ext = `ext::sh -c touch% ${marker('ext-transport')}`;
    const env: Record<string, string> = {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      GIT_CONFIG_SYSTEM: path.join(root, 'system-gitconfig'),
      GIT_CONFIG_COUNT: '3',
      GIT_CONFIG_KEY_0: 'credential.helper',
      GIT_CONFIG_VALUE_0: helper('environment'),
      GIT_CONFIG_KEY_1: `url.${ext}.insteadOf`,
      GIT_CONFIG_VALUE_1: 'http://ext.invalid/',
      GIT_CONFIG_KEY_2: `url.file://${localTarget}.insteadOf`,
      GIT_CONFIG_VALUE_2: 'http://file.invalid/repo.git',
    };
    for (const [key, value] of Object.entries(env)) {
      saved[key] = process.env[key];
      process.env[key] = value;
    }
    // The hostile configuration does reach a git that is not hardened. (jest gives this file its
    // own process.env, which the service reads; a child gets it only when it is passed.)
    expect(
      execFileSync('git', ['config', '--get-all', 'credential.helper'], { encoding: 'utf8', env: process.env }).trim().split('\n'),
    ).toHaveLength(4);

    t = await startTestApp({ TEMPLATE_REPO_ROOTS: root, GIT_TIMEOUT_MS: '20000' });
  });

  // Each test answers for the markers of what it ran.
  beforeEach(() => {
    for (const name of readdirSync(markers)) rmSync(path.join(markers, name));
  });

  afterAll(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await t?.close();
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    rmSync(root, { recursive: true, force: true });
  });

  test('a submodule is never fetched: not when the repo is added, reloaded, or read as a build context', async () => {
    const created = await t.request<Named>('POST', '/template_repos', { body: { name: superRepo } });
    expect(created.status).toBe(200);
    expect((await t.request('POST', `/template_repos/${created.body.id}`)).status).toBe(200);
    const names = (await t.request<Named[]>('GET', '/templates')).body.map((template) => template.name);
    expect(names).toEqual(['Main']);
    const nested = await withGitRef(
      `file://${superRepo}`,
      'main',
      { cacheDir: path.join(root, 'refs'), timeoutMs: 20_000, localRoots: [root] },
      (dir) => Promise.resolve(readdirSync(path.join(dir, 'nested'))),
    );
    expect(nested).toEqual([]);
    expect(ran()).toEqual([]);
  });

  test('no credential helper runs, from any configuration: a server asking for credentials gets none', async () => {
    const authorizations: (string | undefined)[] = [];
    const url = await listen(
      createServer((req, res) => {
        authorizations.push(req.headers.authorization);
        res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end();
      }),
    );
    const res = await t.request('POST', '/template_repos', { body: { name: `${url}/private.git` } });
    expect(res.body).toEqual({
      code: 502,
      message: `repository not found: ${url}/private.git (git: unable to read askpass response from 'false')`,
      fields: '',
    });
    await expect(
      withGitRef(`${url}/private.git`, 'main', { cacheDir: path.join(root, 'refs'), timeoutMs: 20_000, localRoots: [root] }, () =>
        Promise.resolve(),
      ),
    ).rejects.toMatchObject({ httpStatus: 502 });
    expect({ ran: ran(), authorizations: authorizations.filter(Boolean) }).toEqual({ ran: [], authorizations: [] });
  });

  test('only the allowed transports: a URL that git would rewrite to ext:: or file:: is refused, and runs nothing', async () => {
    const ext = await t.request('POST', '/template_repos', { body: { name: 'http://ext.invalid/repo.git' } });
    expect(ext.body).toEqual({ code: 502, message: expect.stringContaining("transport 'ext' not allowed"), fields: '' });
    const file = await t.request('POST', '/template_repos', { body: { name: 'http://file.invalid/repo.git' } });
    expect(file.body).toEqual({ code: 502, message: expect.stringContaining("transport 'file' not allowed"), fields: '' });
    expect((await t.request<Named[]>('GET', '/templates')).body.map((template) => template.name)).not.toContain('Read Through file');
    expect(ran()).toEqual([]);
  });

  test('credentials of a URL never reach the host a redirect names', async () => {
    const seen: { host: string; method: string; authorization?: string }[] = [];
    const record = (host: string, req: IncomingMessage) =>
      seen.push({ host, method: req.method ?? '', authorization: req.headers.authorization });
    // The second host serves a real repository's refs, then asks for credentials to send its objects.
    const advertisement = execFileSync('git', ['upload-pack', '--stateless-rpc', '--advertise-refs', localTarget]);
    const other = await listen(
      createServer((req: IncomingMessage, res: ServerResponse) => {
        record('other', req);
        if (req.method === 'GET') {
          res.writeHead(200, { 'content-type': 'application/x-git-upload-pack-advertisement', 'cache-control': 'no-cache' });
          return void res.end(Buffer.concat([Buffer.from('001e# service=git-upload-pack\n0000'), advertisement]));
        }
        req.resume();
        res.writeHead(401, { 'www-authenticate': 'Basic realm="other"' }).end();
      }),
      '127.0.0.2',
    );
    const named = await listen(
      createServer((req, res) => {
        record('named', req);
        res.writeHead(302, { location: `${other}${req.url}` }).end();
      }),
    );
    const res = await t.request('POST', '/template_repos', {
      body: { name: named.replace('http://', 'http://user:url-secret@') + '/repo.git' },
    });
    // The redirect is not followed; the message names the URL without its credentials.
    expect(res.body).toEqual({
      code: 502,
      message: `git clone of ${named}/repo.git failed: unable to access '${named}/repo.git/': The requested URL returned error: 302`,
      fields: '',
    });
    const secret = `Basic ${Buffer.from('user:url-secret').toString('base64')}`;
    expect(seen.filter((s) => s.host === 'other' && s.authorization === secret)).toEqual([]);
    // Without credentials there is nothing to leak: the redirect is followed as git does.
    const anonymous = await t.request('POST', '/template_repos', { body: { name: `${named}/repo.git` } });
    expect(anonymous.body).toEqual({
      code: 502,
      message: expect.stringContaining(`repository not found: ${named}/repo.git`),
      fields: '',
    });
    expect(seen.filter((s) => s.host === 'other').map((s) => s.method)).toContain('POST');
    expect(ran()).toEqual([]);
  });
});
