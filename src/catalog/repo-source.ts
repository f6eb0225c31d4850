import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { DomainError, UpstreamError, ValidationError } from '../errors';
import { collectTemplateFiles, MAX_TEMPLATE_FILE_BYTES, type RepoFile, type RepoFileError } from './repo-files';
import { isNeverAddress } from './outbound-policy';
import { GitCommandError, gitFailure, redactUrls, runGit } from './repo-git';
import type { TemplateDefinition } from './template-definition';
import { parseTemplateFile, TemplateFileError } from './template-file';

export type RepoKind = 'git-url' | 'local-git' | 'local-dir' | 'github';

export interface RepoLocation {
  kind: RepoKind;
  /** What git clones (a URL or a path), or the directory read for `local-dir`. */
  location: string;
}

export const GITHUB_BASE_URL = 'https://github.com';

export interface RepoOptions {
  cacheDir: string;
  /** For the whole operation, all git commands together. */
  timeoutMs: number;
  githubBaseUrl?: string;
  /** Directories under which local paths (and file:// URLs) may be template repos; none by default. */
  localRoots?: readonly string[];
}

export interface SaveOptions extends RepoOptions {
  authorName: string;
  authorEmail: string;
  message?: string;
}

const GIT_URL = /^(https?|ssh|git|file):\/\//i;
const SCP_LIKE = /^[A-Za-z0-9][A-Za-z0-9._-]*@[A-Za-z0-9][A-Za-z0-9.-]*:(?!\/\/)\S+$/;
// GitHub: owner 1-39 letters, digits or inner hyphens; repository letters, digits, . _ -
const GITHUB_NAME = /^([A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?)\/([A-Za-z0-9._-]{1,100})$/;

export function classifyRepoName(name: string, options: { githubBaseUrl?: string; localRoots?: readonly string[] } = {}): RepoLocation {
  const given = (name ?? '').trim();
  if (given === '') throw new ValidationError("name: can't be blank", ['name']);
  if (/^file:/i.test(given)) {
    let local: string;
    try {
      local = fileURLToPath(given);
    } catch {
      throw new ValidationError('name: not a valid file:// URL', ['name']);
    }
    confine(local, options.localRoots ?? []);
    return { kind: 'git-url', location: given };
  }
  if (GIT_URL.test(given) || SCP_LIKE.test(given)) return { kind: 'git-url', location: given };
  if (path.isAbsolute(given) || /^\.\.?([/\\]|$)/.test(given)) {
    const location = confine(given, options.localRoots ?? []);
    if (!isDirectory(location)) {
      throw new ValidationError(`name: ${given} is not an existing directory`, ['name']);
    }
    return { kind: isGitRepository(location) ? 'local-git' : 'local-dir', location };
  }
  const github = GITHUB_NAME.exec(given);
  if (github && github[2] !== '.' && github[2] !== '..') {
    const base = (options.githubBaseUrl ?? GITHUB_BASE_URL).replace(/\/+$/, '');
    const repo = github[2].endsWith('.git') ? github[2] : `${github[2]}.git`;
    return { kind: 'github', location: `${base}/${github[1]}/${repo}` };
  }
  throw new ValidationError(
    `name: "${redactUrls(given)}" is not a git URL, an existing local path (absolute or ./relative) or a GitHub owner/repo`,
    ['name'],
  );
}

/** Compared after resolving symlinks; one message whether or not the path exists, so a client learns nothing of the server's directories. */
function confine(given: string, roots: readonly string[]): string {
  const real = realOrResolved(given);
  const inside = roots.some((root) => {
    const base = realOrResolved(root);
    return real === base || real.startsWith(base.endsWith(path.sep) ? base : base + path.sep);
  });
  if (!inside) {
    throw new ValidationError(
      `name: local paths are template repos only under the directories an operator lists in TEMPLATE_REPO_ROOTS${roots.length ? '' : ' (none are)'}`,
      ['name'],
    );
  }
  return real;
}

function realOrResolved(location: string): string {
  try {
    return realpathSync(path.resolve(location));
  } catch {
    return path.resolve(location);
  }
}

/** Whether git may use the file transport for this repo: never for a client's remote URL. */
function allowsFile(repo: RepoLocation): boolean {
  return repo.kind !== 'git-url' || /^file:/i.test(repo.location);
}

function gitHost(location: string): string | undefined {
  if (/^file:/i.test(location) || !(GIT_URL.test(location) || SCP_LIKE.test(location))) return undefined;
  if (SCP_LIKE.test(location)) return /@([^:]+):/.exec(location)?.[1];
  try {
    return new URL(location).hostname.replace(/^\[|\]$/g, '') || undefined;
  } catch {
    return undefined;
  }
}

// No git to link-local (cloud metadata), unspecified or multicast; private networks host git servers.
// Checked before git resolves the name again itself, so a rebinding name is not caught here.
async function assertGitHost(location: string, label: string): Promise<void> {
  const host = gitHost(location);
  if (!host) return;
  const addresses = isIP(host)
    ? [host]
    : await lookup(host, { all: true }).then(
        (found) => found.map((a) => a.address),
        () => [],
      );
  if (addresses.some(isNeverAddress)) {
    throw new UpstreamError(
      `git of ${label} refused: its host is at an address this service never connects to (link-local or cloud metadata)`,
    );
  }
}

export async function readRepo(name: string, options: RepoOptions): Promise<{ files: RepoFile[]; errors: RepoFileError[] }> {
  const repo = classifyRepoName(name, options);
  if (repo.kind === 'local-dir') return collectTemplateFiles(repo.location);
  return withCheckout(name, repo, options, async (work) => collectTemplateFiles(work));
}

/** The checkout is removed when `use` ends: read what is needed before then. */
export async function withRepoDirectory<T>(name: string, options: RepoOptions, use: (dir: string) => Promise<T>): Promise<T> {
  const repo = classifyRepoName(name, options);
  if (repo.kind === 'local-dir') return use(realpathSync(repo.location));
  return withCheckout(name, repo, options, async (work) => use(realpathSync(work)));
}

/** A shallow checkout of `ref` under the template repos' URL policy; uncached, as a build context is read once. */
export async function withGitRef<T>(url: string, ref: string, options: RepoOptions, use: (dir: string) => Promise<T>): Promise<T> {
  const repo = classifyRepoName(url, options);
  if (repo.kind !== 'git-url') throw new ValidationError(`name: "${redactUrls(url)}" is not a git URL`, ['name']);
  const deadline = Date.now() + options.timeoutMs;
  const label = redactUrls(url.trim());
  await assertGitHost(repo.location, label);
  const git = async (args: string[], cwd: string, action: string) => {
    try {
      return await runGit(args, { cwd, timeoutMs: deadline - Date.now(), allowFile: allowsFile(repo) });
    } catch (error) {
      throw gitFailure(error, label, action, options.timeoutMs);
    }
  };
  await mkdir(options.cacheDir, { recursive: true });
  const work = await mkdtemp(path.join(options.cacheDir, '.ref-'));
  try {
    await git(['init', '-q'], work, 'init');
    const wanted = ref || 'HEAD';
    try {
      await runGit(['fetch', '-q', '--depth', '1', '--no-tags', '--', repo.location, wanted], {
        cwd: work,
        timeoutMs: deadline - Date.now(),
        allowFile: allowsFile(repo),
      });
      await git(['checkout', '-q', '--detach', 'FETCH_HEAD'], work, 'checkout');
    } catch (error) {
      // A commit id is not a ref a server must hand out by itself: fetch the history and look it up, as docker does.
      if (!/^[0-9a-f]{7,40}$/i.test(wanted) || !(error instanceof GitCommandError) || error.timedOut)
        throw gitFailure(error, label, 'fetch', options.timeoutMs);
      await git(
        ['fetch', '-q', '--no-tags', '--', repo.location, '+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'],
        work,
        'fetch',
      );
      await git(['checkout', '-q', '--detach', `${wanted}^{commit}`], work, 'checkout');
    }
    return await use(realpathSync(work));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export interface LoadedTemplate {
  /** The file it came from, relative to the repo root: the template's identity in its repo. */
  path: string;
  definition: TemplateDefinition;
}

export interface TemplateLoadError extends RepoFileError {
  /** 1-based, of the first problem. */
  line: number | null;
}

export function loadTemplates(files: RepoFile[], source: string): { templates: LoadedTemplate[]; errors: TemplateLoadError[] } {
  const templates: LoadedTemplate[] = [];
  const errors: TemplateLoadError[] = [];
  for (const file of files) {
    try {
      templates.push({ path: file.path, definition: { ...parseTemplateFile(file.text, file.path), source } });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const prefix = `${file.path}: `;
      errors.push({
        file: file.path,
        line: error instanceof TemplateFileError ? error.line : null,
        message: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message,
      });
    }
  }
  return { templates, errors };
}

/** `fileName` as a safe file name at the repo root: `[0-9A-Za-z._-]`, no leading dots, `.pmx`. */
export function templateFileName(fileName: string): string {
  const base = (fileName ?? '')
    .trim()
    .replace(/\.pmx$/i, '')
    .replace(/[^0-9A-Za-z._-]/g, '_')
    .replace(/^\.+/, '');
  if (base === '' || /^_+$/.test(base)) throw new ValidationError('file_name: must contain a letter or digit', ['file_name']);
  return `${base.slice(0, 200)}.pmx`;
}

/** A local work tree gets the commit directly: a push to its checked-out branch would be refused. */
export async function saveTemplateFile(
  repoName: string,
  fileName: string,
  content: string,
  options: SaveOptions,
): Promise<{ path: string; commit?: string }> {
  const file = templateFileName(fileName);
  if (Buffer.byteLength(content, 'utf8') > MAX_TEMPLATE_FILE_BYTES) {
    throw new ValidationError('content: a template file may be at most 1 MiB', ['content']);
  }
  const repo = classifyRepoName(repoName, options);
  if (repo.kind === 'local-dir') {
    await writeAtomically(path.join(repo.location, file), content);
    return { path: file };
  }
  const deadline = Date.now() + options.timeoutMs;
  const label = redactUrls(repoName.trim());
  const git = async (args: string[], cwd: string, action: string) => {
    try {
      return await runGit(args, { cwd, timeoutMs: deadline - Date.now(), allowFile: allowsFile(repo) });
    } catch (error) {
      throw gitFailure(error, label, action, options.timeoutMs);
    }
  };
  const message = options.message ?? `Save template ${file}`;
  const identity = ['-c', `user.name=${options.authorName}`, '-c', `user.email=${options.authorEmail}`];

  if (repo.kind === 'local-git' && (await git(['rev-parse', '--is-bare-repository'], repo.location, 'inspect')).stdout.trim() === 'false') {
    const top = (await git(['rev-parse', '--show-toplevel'], repo.location, 'inspect')).stdout.trim();
    await writeAtomically(path.join(top, file), content);
    return { path: file, commit: await commitInPlace(top, file, { message, identity }, { label, deadline, timeoutMs: options.timeoutMs }) };
  }

  return withCheckout(repoName, repo, options, async (work) => {
    await writeAtomically(path.join(work, file), content);
    await git(['add', '--', file], work, 'add');
    if (await hasStagedChange(work, file, deadline)) {
      await git([...identity, 'commit', '-q', '-m', message], work, 'commit');
      const branch = (await git(['symbolic-ref', '--short', 'HEAD'], work, 'inspect')).stdout.trim();
      try {
        await runGit(['push', '--', repo.location, `HEAD:refs/heads/${branch}`], {
          cwd: work,
          timeoutMs: deadline - Date.now(),
          allowFile: allowsFile(repo),
        });
      } catch (error) {
        throw pushFailure(error, label, options.timeoutMs);
      }
    }
    return { path: file, commit: (await git(['rev-parse', 'HEAD'], work, 'inspect')).stdout.trim() };
  });
}

// Plumbing only: the operator's repository config may name filters that `git add`/`commit` would run.
// The tree is built in a private index and the branch moves only if unchanged; what else the operator
// staged stays staged.
async function commitInPlace(
  top: string,
  file: string,
  commit: { message: string; identity: string[] },
  run: { label: string; deadline: number; timeoutMs: number },
): Promise<string> {
  // A query whose exit 1 means "none" (a branch with no commit yet, no such config), not a failure.
  const query = async (args: string[]): Promise<string | null> => {
    try {
      return (await runGit(args, { cwd: top, timeoutMs: run.deadline - Date.now() })).stdout.trim();
    } catch (error) {
      if (error instanceof GitCommandError && error.exitCode === 1 && !error.timedOut) return null;
      throw gitFailure(error, run.label, 'inspect', run.timeoutMs);
    }
  };
  const head = await query(['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
  // Writing an index re-reads "racily clean" files through their clean filter: blank every driver.
  const overrides = filterOverrides((await query(['config', '--get-regexp', '^filter\\.'])) ?? '');
  const git = async (args: string[], action: string, env?: Record<string, string>): Promise<string> => {
    try {
      return (await runGit([...overrides, ...args], { cwd: top, timeoutMs: run.deadline - Date.now(), env })).stdout.trim();
    } catch (error) {
      throw gitFailure(error, run.label, action, run.timeoutMs);
    }
  };
  const blob = await git(['hash-object', '-w', '--no-filters', '--', file], 'add');
  const entry = `100644,${blob},${file}`;
  const scratch = await mkdtemp(path.join(tmpdir(), 'platform-index-'));
  let tree: string;
  try {
    const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
    if (head) await git(['read-tree', head], 'add', env);
    await git(['update-index', '--add', '--cacheinfo', entry], 'add', env);
    tree = await git(['write-tree'], 'commit', env);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  let result: string;
  if (head !== null && tree === (await git(['rev-parse', `${head}^{tree}`], 'inspect'))) result = head;
  else {
    const parent = head === null ? [] : ['-p', head];
    result = await git([...commit.identity, 'commit-tree', '--no-gpg-sign', ...parent, '-m', commit.message, tree], 'commit');
    // The old value guards against a concurrent commit; empty: the branch must not exist yet.
    await git(['update-ref', '-m', `commit: ${commit.message}`, 'HEAD', result, head ?? ''], 'commit');
  }
  await git(['update-index', '--add', '--cacheinfo', entry], 'add');
  return result;
}

function filterOverrides(configOutput: string): string[] {
  const names = new Set<string>();
  for (const line of configOutput.split('\n')) {
    const key = line.split(' ', 1)[0] ?? '';
    const last = key.lastIndexOf('.');
    if (key.startsWith('filter.') && last > 'filter.'.length) names.add(key.slice('filter.'.length, last));
  }
  return [...names].flatMap((name) => ['clean', 'smudge', 'process'].flatMap((key) => ['-c', `filter.${name}.${key}=`]));
}

// The URL may carry credentials: the clone's remote is stored without them and each fetch/push names the URL.
async function withCheckout<T>(name: string, repo: RepoLocation, options: RepoOptions, use: (work: string) => Promise<T>): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  const label = redactUrls(name.trim());
  await assertGitHost(repo.location, label);
  const git = async (args: string[], cwd: string | undefined, action: string) => {
    try {
      return await runGit(args, { cwd, timeoutMs: deadline - Date.now(), allowFile: allowsFile(repo) });
    } catch (error) {
      throw gitFailure(error, label, action, options.timeoutMs);
    }
  };
  await mkdir(options.cacheDir, { recursive: true });
  const cache = path.join(options.cacheDir, cacheName(label));
  const work = await mkdtemp(path.join(options.cacheDir, '.work-'));
  try {
    let reused = false;
    if (isGitDir(path.join(cache, '.git'))) {
      try {
        await cp(cache, work, { recursive: true, verbatimSymlinks: true });
        reused = true;
      } catch {
        // Swapped away by a concurrent reader: clone afresh.
        await rm(work, { recursive: true, force: true });
        await mkdir(work);
      }
    }
    if (reused) {
      try {
        await runGit(['fetch', '-q', '--depth', '1', '--no-tags', '--', repo.location, 'HEAD'], {
          cwd: work,
          timeoutMs: deadline - Date.now(),
          allowFile: allowsFile(repo),
        });
        await git(['reset', '-q', '--hard', 'FETCH_HEAD'], work, 'reset');
      } catch (error) {
        // Still an empty repository: nothing to fetch.
        if (!/couldn't find remote ref HEAD/i.test((error as { stderr?: string }).stderr ?? '')) {
          throw gitFailure(error, label, 'fetch', options.timeoutMs);
        }
      }
      await git(['clean', '-q', '-ffdx'], work, 'clean');
    } else {
      await git(['clone', '-q', '--depth', '1', '--no-tags', '--', repo.location, work], undefined, 'clone');
      await git(['remote', 'set-url', 'origin', redactUrls(repo.location)], work, 'configure');
    }
    const result = await use(work);
    await swapIn(work, cache);
    return result;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function swapIn(work: string, cache: string): Promise<void> {
  const old = `${cache}.old-${randomBytes(4).toString('hex')}`;
  try {
    await rename(cache, old);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  try {
    await rename(work, cache);
  } catch {
    // A concurrent operation swapped in its own checkout first; it is as fresh as ours.
  }
  await rm(old, { recursive: true, force: true });
}

function cacheName(label: string): string {
  const slug = label
    .replace(/[^0-9A-Za-z._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(-40);
  return `${slug}-${createHash('sha256').update(label).digest('hex').slice(0, 16)}`;
}

async function hasStagedChange(cwd: string, file: string, deadline: number): Promise<boolean> {
  try {
    await runGit(['diff', '--cached', '--quiet', '--', file], { cwd, timeoutMs: deadline - Date.now() });
    return false;
  } catch (error) {
    if ((error as { exitCode?: number }).exitCode === 1) return true;
    throw error;
  }
}

function pushFailure(error: unknown, label: string, timeoutMs: number): Error {
  const stderr = (error as { stderr?: string }).stderr;
  const timedOut = (error as { timedOut?: boolean }).timedOut;
  if (typeof stderr !== 'string' || timedOut) return gitFailure(error, label, 'push', timeoutMs);
  // git reports a refused ref as ` ! [remote rejected] HEAD -> main (pre-receive hook declined)`.
  const reason = /!\s*\[(?:remote )?rejected\][^(]*\(([^)]*)\)/.exec(stderr)?.[1];
  if (!reason) return gitFailure(error, label, 'push', timeoutMs);
  const remote = stderr
    .split('\n')
    .filter((l) => l.startsWith('remote:'))
    .map((l) => l.slice(7).trim())
    .filter((l) => l !== '');
  const detail = remote.length > 0 ? `: ${redactUrls(remote.slice(0, 3).join(' / ')).slice(0, 300)}` : '';
  return new UpstreamError(`push to ${label} was rejected (${redactUrls(reason)})${detail}`);
}

async function writeAtomically(file: string, content: string): Promise<void> {
  const temp = `${file}.tmp-${randomBytes(4).toString('hex')}`;
  await writeFile(temp, content, 'utf8');
  await rename(temp, file);
}

function isDirectory(location: string): boolean {
  try {
    return statSync(location).isDirectory();
  } catch {
    return false;
  }
}

function isGitRepository(location: string): boolean {
  const dotGit = path.join(location, '.git');
  // A linked work tree or submodule has a `.git` file pointing at its git dir.
  if (isFile(dotGit)) return readFileSync(dotGit, 'utf8').startsWith('gitdir:');
  return isGitDir(dotGit) || isGitDir(location);
}

function isGitDir(location: string): boolean {
  return isFile(path.join(location, 'HEAD')) && isDirectory(path.join(location, 'objects')) && isDirectory(path.join(location, 'refs'));
}

function isFile(location: string): boolean {
  try {
    return statSync(location).isFile();
  } catch {
    return false;
  }
}
