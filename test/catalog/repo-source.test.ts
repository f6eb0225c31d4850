import { expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { classifyRepoName, loadTemplates, readRepo, saveTemplateFile, templateFileName } from '../../src/catalog/repo-source';
import { UpstreamError, UpstreamTimeoutError, ValidationError } from '../../src/errors';

// Real git throughout: every repository here is made by the test in a temp dir; a bare
// repository stands in for the remote.
const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

let root: string;
let cacheDir: string;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'pipe'] });
}

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}

/** A work tree with one commit holding `files`, on branch `main`. */
function workRepo(name: string, files: Record<string, string>): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

/** A bare "remote" cloned from a work tree. */
function bareRepo(from: string, at: string): string {
  mkdirSync(path.dirname(at), { recursive: true });
  git(root, 'clone', '-q', '--bare', from, at);
  return at;
}

function pmx(name: string, extra = ''): string {
  return `name: ${name}\nimages:\n  - name: web\n    source: nginx\n${extra}`;
}

// Test repos live in the temp directory: the operator's root for these tests (TEMPLATE_REPO_ROOTS).
const ROOTS = [tmpdir(), process.cwd()];
const options = () => ({ cacheDir, timeoutMs: 20_000, localRoots: ROOTS });
const saveOptions = () => ({ ...options(), authorName: 'Platform', authorEmail: 'platform@example.com' });

function thrown(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: Error) => error,
  );
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'repo-source-'));
  cacheDir = path.join(root, 'cache');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('classifyRepoName', () => {
  test('git URLs of every scheme, and scp-like user@host:path', () => {
    for (const name of [
      'https://example.com/a/b.git',
      'http://h/x',
      'ssh://git@h/x.git',
      'git://h/x',
      'file:///srv/x.git',
      'git@github.com:acme/t.git',
    ]) {
      expect(classifyRepoName(name, { localRoots: ['/srv'] })).toEqual({ kind: 'git-url', location: name });
    }
    // file:// names a path on the server: only under a root (test/hardening/repo-confinement.test.ts).
    expect(() => classifyRepoName('file:///srv/x.git')).toThrow(ValidationError);
  });

  test('local paths: a work tree or bare repository is local-git, anything else local-dir', () => {
    const work = workRepo('work', { 'a.pmx': pmx('a') });
    const bare = bareRepo(work, path.join(root, 'bare.git'));
    const plain = path.join(root, 'plain');
    mkdirSync(plain);
    expect(classifyRepoName(work, { localRoots: ROOTS })).toEqual({ kind: 'local-git', location: work });
    expect(classifyRepoName(bare, { localRoots: ROOTS })).toEqual({ kind: 'local-git', location: bare });
    expect(classifyRepoName(plain, { localRoots: ROOTS })).toEqual({ kind: 'local-dir', location: plain });
    expect(classifyRepoName(`./${path.relative(process.cwd(), plain)}`, { localRoots: ROOTS })).toEqual({
      kind: 'local-dir',
      location: plain,
    });
  });

  test('GitHub owner/repo, against github.com or a configured base', () => {
    expect(classifyRepoName('centurylinklabs/panamax-public-templates')).toEqual({
      kind: 'github',
      location: 'https://github.com/centurylinklabs/panamax-public-templates.git',
    });
    expect(classifyRepoName('acme/t.git', { githubBaseUrl: '/srv/gh/' })).toEqual({ kind: 'github', location: '/srv/gh/acme/t.git' });
  });

  test('anything else is a ValidationError on name', () => {
    for (const name of ['', 'no-slash', '-x/y', 'a/b/c', 'acme/..', '/does/not/exist', 'ext::sh -c touch% /tmp/pwned']) {
      let error: unknown;
      try {
        classifyRepoName(name);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).fields).toEqual(['name']);
    }
  });
});

describe('readRepo and loadTemplates', () => {
  test('clones a remote, reads .pmx files at any depth and reports the bad one', async () => {
    const work = workRepo('src', {
      'wordpress.pmx': pmx('Wordpress'),
      'nested/deep/rails.pmx': pmx('Rails'),
      'nested/broken.pmx': 'name: [unclosed\n',
      'nested/invalid.pmx': 'images:\n  - name: web\n',
      'README.md': '# not a template',
    });
    const remote = bareRepo(work, path.join(root, 'remote.git'));
    const name = `file://${remote}`;

    const { files, errors: fileErrors } = await readRepo(name, options());
    expect(fileErrors).toEqual([]);
    expect(files.map((f) => f.path)).toEqual(['nested/broken.pmx', 'nested/deep/rails.pmx', 'nested/invalid.pmx', 'wordpress.pmx']);

    const { templates, errors } = loadTemplates(files, name);
    expect(templates.map((t) => [t.path, t.definition.name, t.definition.source])).toEqual([
      ['nested/deep/rails.pmx', 'Rails', name],
      ['wordpress.pmx', 'Wordpress', name],
    ]);
    expect(errors).toEqual([
      // The file ends with a newline: the unclosed list is found at the end, line 2.
      { file: 'nested/broken.pmx', line: 2, message: expect.stringMatching(/^not valid YAML: /) },
      // No line: the first problem is a key that is missing.
      { file: 'nested/invalid.pmx', line: null, message: "name: can't be blank; images[0].source: can't be blank" },
    ]);
  });

  test('a second read fetches into the cache: new files appear, deleted ones go', async () => {
    const work = workRepo('src', { 'one.pmx': pmx('One'), 'two.pmx': pmx('Two') });
    const remote = bareRepo(work, path.join(root, 'remote.git'));
    const first = await readRepo(remote, options());
    expect(first.files.map((f) => f.path)).toEqual(['one.pmx', 'two.pmx']);

    git(work, 'rm', '-q', 'two.pmx');
    writeFiles(work, { 'three.pmx': pmx('Three') });
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', 'change');
    git(work, 'push', '-q', remote, 'main');

    const second = await readRepo(remote, options());
    expect(second.files.map((f) => f.path)).toEqual(['one.pmx', 'three.pmx']);
  });

  test('a local work tree is read at its committed HEAD', async () => {
    const work = workRepo('work', { 'a.pmx': pmx('A') });
    writeFiles(work, { 'uncommitted.pmx': pmx('U') });
    expect((await readRepo(work, options())).files).toEqual([{ path: 'a.pmx', text: pmx('A') }]);
  });

  test('owner/repo is cloned from the GitHub base URL (a local directory stands in for github.com here)', async () => {
    const work = workRepo('src', { 'gh.pmx': pmx('From GitHub') });
    const githubBase = path.join(root, 'fake-github');
    bareRepo(work, path.join(githubBase, 'acme', 'templates.git'));
    const { files } = await readRepo('acme/templates', { ...options(), githubBaseUrl: githubBase });
    expect(files).toEqual([{ path: 'gh.pmx', text: pmx('From GitHub') }]);
  });

  test('a plain directory is read in place; escaping symlinks and big files are reported', async () => {
    const dir = path.join(root, 'plain');
    writeFiles(dir, {
      'a.pmx': pmx('A'),
      'sub/b.PMX': pmx('B'),
      'big.pmx': `name: big\n#${'x'.repeat(1024 * 1024)}\n`,
      '.git/ignored.pmx': pmx('Ignored'),
    });
    writeFileSync(path.join(root, 'outside.pmx'), pmx('Outside'));
    symlinkSync(path.join(root, 'outside.pmx'), path.join(dir, 'escape.pmx'));
    symlinkSync(path.join(dir, 'a.pmx'), path.join(dir, 'inside.pmx'));

    const { files, errors } = await readRepo(dir, options());
    expect(files).toEqual([
      { path: 'a.pmx', text: pmx('A') },
      { path: 'inside.pmx', text: pmx('A') },
      { path: 'sub/b.PMX', text: pmx('B') },
    ]);
    expect(errors).toEqual([
      { file: 'big.pmx', message: expect.stringMatching(/^file is larger than 1 MiB/) },
      { file: 'escape.pmx', message: 'symbolic link points outside the repository; skipped' },
    ]);
    expect(existsSync(cacheDir)).toBe(false);
  });

  test('a missing local path is a ValidationError; a missing remote is "repository not found"', async () => {
    expect(await thrown(readRepo(path.join(root, 'nope'), options()))).toBeInstanceOf(ValidationError);
    const error = await thrown(readRepo(`file://${path.join(root, 'nope.git')}`, options()));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toMatch(/^repository not found: file:\/\/.*nope\.git/);
  });

  test('credentials in a URL never appear in the error', async () => {
    // Port 1 on loopback: nothing listens, so git fails at once.
    const error = await thrown(readRepo('https://someone:s3cret-token@127.0.0.1:1/acme/t.git', options()));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).not.toContain('s3cret');
    expect(error.message).toContain('https://127.0.0.1:1/acme/t.git');
  });

  test('a remote that never answers times out', async () => {
    // A real local TCP server that accepts and stays silent.
    const sockets: Socket[] = [];
    const server: Server = createServer((socket) => {
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const error = await thrown(readRepo(`http://127.0.0.1:${port}/t.git`, { cacheDir, timeoutMs: 700 }));
      expect(error).toBeInstanceOf(UpstreamTimeoutError);
      expect(error.message).toBe(`git clone of http://127.0.0.1:${port}/t.git timed out after 700 ms`);
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('saveTemplateFile', () => {
  test('commits <file>.pmx at the root, pushes it, and a re-read sees it', async () => {
    const work = workRepo('src', { 'existing.pmx': pmx('Existing') });
    const remote = bareRepo(work, path.join(root, 'remote.git'));
    const name = `file://${remote}`;
    await readRepo(name, options()); // a cache exists: the save must build on it

    const saved = await saveTemplateFile(name, 'My Template/../x', pmx('Mine'), saveOptions());
    expect(saved).toEqual({ path: 'My_Template_.._x.pmx', commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(git(remote, 'log', '-1', '--format=%s|%an|%ae', 'main').trim()).toBe(
      'Save template My_Template_.._x.pmx|Platform|platform@example.com',
    );
    expect(git(remote, 'rev-parse', 'main').trim()).toBe(saved.commit);

    const { files } = await readRepo(name, options());
    expect(files.map((f) => f.path)).toEqual(['My_Template_.._x.pmx', 'existing.pmx']);

    // Saving it again unchanged makes no new commit.
    expect(await saveTemplateFile(name, 'My Template/../x.pmx', pmx('Mine'), saveOptions())).toEqual(saved);
  });

  test('saves into an empty remote on its default branch', async () => {
    const remote = path.join(root, 'empty.git');
    git(root, 'init', '-q', '--bare', '-b', 'trunk', remote);
    await saveTemplateFile(remote, 'first', pmx('First'), { ...saveOptions(), message: 'Add first template' });
    expect(git(remote, 'log', '-1', '--format=%s', 'trunk').trim()).toBe('Add first template');
    expect(git(remote, 'show', 'trunk:first.pmx')).toBe(pmx('First'));
  });

  test('a rejected push is an UpstreamError with the reason', async () => {
    const work = workRepo('src', { 'a.pmx': pmx('A') });
    const remote = bareRepo(work, path.join(root, 'remote.git'));
    writeFileSync(path.join(remote, 'hooks', 'pre-receive'), '#!/bin/sh\necho "pushes are closed today" >&2\nexit 1\n');
    chmodSync(path.join(remote, 'hooks', 'pre-receive'), 0o755);

    const error = await thrown(saveTemplateFile(remote, 'b', pmx('B'), saveOptions()));
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.message).toBe(`push to ${remote} was rejected (pre-receive hook declined): pushes are closed today`);
  });

  test('a local work tree gets the commit directly, leaving other changes alone', async () => {
    const work = workRepo('work', { 'a.pmx': pmx('A') });
    writeFiles(work, { 'staged.txt': 'mine' });
    git(work, 'add', 'staged.txt');
    const saved = await saveTemplateFile(work, 'b', pmx('B'), saveOptions());
    expect(saved.path).toBe('b.pmx');
    expect(git(work, 'show', '--name-only', '--format=%s', 'HEAD').trim().split('\n')).toEqual(['Save template b.pmx', '', 'b.pmx']);
    expect(git(work, 'status', '--porcelain').trim()).toBe('A  staged.txt');
  });

  test("a local work tree's own filters, diff drivers and hooks never run when a template is saved into it", async () => {
    // A hostile work tree: its .git/config names commands for the template files (a clean and
    // a smudge filter, a diff textconv) and it has hooks; each
    // would leave a marker file if git ran it. `git add` runs the clean filter, which is how
    // saving used to stage the file.
    const work = workRepo('hostile', { 'a.pmx': pmx('A') });
    // Something the operator staged, before the filters exist (git add would run them).
    writeFiles(work, { 'staged.txt': 'mine' });
    git(work, 'add', 'staged.txt');
    const marker = (what: string) => path.join(root, `ran-${what}`);
    const touch = (what: string) => `touch '${marker(what)}'; cat`;
    writeFiles(work, { '.gitattributes': '*.pmx filter=evil diff=evil\n' });
    git(work, 'config', 'filter.evil.clean', touch('clean'));
    git(work, 'config', 'filter.evil.smudge', touch('smudge'));
    git(work, 'config', 'diff.evil.textconv', touch('textconv'));
    for (const hook of ['pre-commit', 'commit-msg', 'post-commit', 'reference-transaction', 'post-index-change']) {
      writeFileSync(path.join(work, '.git', 'hooks', hook), `#!/bin/sh\ntouch '${marker(hook)}'\n`);
      chmodSync(path.join(work, '.git', 'hooks', hook), 0o755);
    }
    // The index older than a.pmx's entry makes that entry "racily clean": whatever writes the index
    // next re-reads a.pmx, through its clean filter unless that is blanked.
    const earlier = new Date(statSync(path.join(work, 'a.pmx')).mtimeMs - 60_000);
    utimesSync(path.join(work, '.git', 'index'), earlier, earlier);
    const before = git(work, 'rev-parse', 'HEAD').trim();

    const saved = await saveTemplateFile(work, 'b', pmx('B'), saveOptions());
    // Saved again unchanged: no new commit, and still nothing run.
    expect(await saveTemplateFile(work, 'b', pmx('B'), saveOptions())).toEqual(saved);

    expect(readdirSync(root).filter((f) => f.startsWith('ran-'))).toEqual([]);
    expect(saved.path).toBe('b.pmx');
    expect(saved.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(git(work, 'rev-parse', 'HEAD').trim()).toBe(saved.commit);
    expect(git(work, 'rev-parse', 'HEAD~1').trim()).toBe(before);
    expect(git(work, 'log', '-1', '--format=%s|%an|%ae|%cn|%ce', 'HEAD').trim()).toBe(
      'Save template b.pmx|Platform|platform@example.com|Platform|platform@example.com',
    );
    // The committed bytes are the template's, as written (no filter applied on the way in).
    expect(execFileSync('git', ['cat-file', 'blob', 'HEAD:b.pmx'], { cwd: work, env: GIT_ENV, encoding: 'utf8' })).toBe(pmx('B'));
    expect(git(work, 'show', '--name-only', '--format=%s', 'HEAD').trim().split('\n')).toEqual(['Save template b.pmx', '', 'b.pmx']);
    // The index holds the saved file as committed, and the caller's staged change is still staged.
    expect(git(work, 'diff', '--cached', '--name-status', '--no-textconv', '--no-ext-diff').trim()).toBe('A\tstaged.txt');
    expect(readdirSync(root).filter((f) => f.startsWith('ran-'))).toEqual([]);
  });

  test('a local work tree with no commit yet gets its first commit on its branch', async () => {
    const work = path.join(root, 'fresh');
    mkdirSync(work);
    git(work, 'init', '-q', '-b', 'trunk');
    const saved = await saveTemplateFile(work, 'first', pmx('First'), saveOptions());
    expect(git(work, 'rev-parse', 'trunk').trim()).toBe(saved.commit);
    expect(git(work, 'rev-list', '--count', 'trunk').trim()).toBe('1');
    expect(git(work, 'show', 'trunk:first.pmx')).toBe(pmx('First'));
    expect(git(work, 'status', '--porcelain').trim()).toBe('');
  });

  test('a plain directory gets the file written in place', async () => {
    const dir = path.join(root, 'plain');
    mkdirSync(dir);
    expect(await saveTemplateFile(dir, 'x', pmx('X'), saveOptions())).toEqual({ path: 'x.pmx' });
    expect(readFileSync(path.join(dir, 'x.pmx'), 'utf8')).toBe(pmx('X'));
  });
});

test('templateFileName keeps [0-9A-Za-z._-], drops leading dots and one .pmx', () => {
  expect(templateFileName('wordpress')).toBe('wordpress.pmx');
  expect(templateFileName('Word Press.pmx')).toBe('Word_Press.pmx');
  expect(templateFileName('../../etc/passwd')).toBe('_.._etc_passwd.pmx');
  expect(() => templateFileName('/')).toThrow(ValidationError);
  expect(() => templateFileName('...')).toThrow(ValidationError);
});
