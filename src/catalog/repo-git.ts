import { spawn } from 'node:child_process';
import { inheritedEnvironment } from '../config';
import { UpstreamError, UpstreamTimeoutError } from '../errors';

/**
 * Running the system `git` for template repos: no shell, a deadline, no prompts, and messages
 * scrubbed of credentials a user may have put in a repo URL.
 */

export class GitCommandError extends Error {
  constructor(
    readonly args: string[],
    readonly exitCode: number | null,
    readonly stderr: string,
    readonly timedOut: boolean,
  ) {
    super(`git ${args[0]} ${timedOut ? 'timed out' : `exited with ${exitCode}`}`);
  }
}

export interface GitRun {
  cwd?: string;
  /** Milliseconds left for this command. */
  timeoutMs: number;
  /**
   * Whether the file transport is allowed: only for a repo that is itself a local path inside
   * TEMPLATE_REPO_ROOTS (or the operator's GITHUB_URL), never for a URL a client gave.
   */
  allowFile?: boolean;
  /** Variables for this command on top of the hardened environment (GIT_INDEX_FILE). */
  env?: Record<string, string>;
}

const OUTPUT_LIMIT = 1024 * 1024;

/**
 * Never prompt (a prompt would hang the request until the deadline) and never fall back to the
 * host's credential helpers: a user-supplied URL must not be fetched with the operator's stored
 * credentials. Credentials embedded in the URL still work. Messages in English so they can be
 * matched. Only these transports: no `ext::` commands.
 */
function gitEnv(allowFile: boolean): NodeJS.ProcessEnv {
  const inherited = inheritedEnvironment();
  const ssh = inherited.GIT_SSH_COMMAND ?? 'ssh';
  return {
    ...inherited,
    LC_ALL: 'C',
    LANG: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'false',
    SSH_ASKPASS: 'false',
    GCM_INTERACTIVE: 'never',
    GIT_SSH_COMMAND: `${ssh} -o BatchMode=yes`,
    // No ext:: (it runs commands) and file:: only when the caller allows it.
    GIT_ALLOW_PROTOCOL: allowFile ? 'file:git:http:https:ssh' : 'git:http:https:ssh',
    // No system or user configuration: only what is given here and the repository's own.
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
}

/**
 * Hardened for repositories a client names: no hooks (core.hooksPath), no fsmonitor command, no
 * credential helpers or prompts, no signing program, submodules never fetched, and no
 * ext:: transport even where GIT_ALLOW_PROTOCOL would be ignored.
 */
const GLOBAL_ARGS = [
  '-c',
  'credential.helper=',
  '-c',
  'core.askPass=false',
  '-c',
  'commit.gpgSign=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'protocol.ext.allow=never',
  '-c',
  'submodule.recurse=false',
  '-c',
  'fetch.recurseSubmodules=false',
];

/**
 * git follows a redirect of its first request and then sends the URL's credentials to the host
 * the redirect named: a URL that carries credentials is never redirected.
 */
const CREDENTIALED_HTTP_URL = /^https?:\/\/[^/?#@]+@/i;

export function runGit(args: string[], run: GitRun): Promise<{ stdout: string; stderr: string }> {
  const redirects = args.some((arg) => CREDENTIALED_HTTP_URL.test(arg)) ? ['-c', 'http.followRedirects=false'] : [];
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...GLOBAL_ARGS, ...redirects, ...args], {
      cwd: run.cwd,
      env: { ...gitEnv(run.allowFile === true), ...run.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a timeout also ends git-remote-https / ssh children.
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length < OUTPUT_LIMIT) stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < OUTPUT_LIMIT) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(
      () => {
        timedOut = true;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      },
      Math.max(1, run.timeoutMs),
    );
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new UpstreamError(`git could not be started: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0 && !timedOut) resolve({ stdout, stderr });
      else reject(new GitCommandError(args, code, stderr, timedOut));
    });
  });
}

/** Strips `user:password@` from every URL in a text. */
export function redactUrls(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1');
}

/** The line of git's stderr that says what went wrong, scrubbed and shortened. */
export function gitReason(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const line = lines.find((l) => /^(fatal|error):/i.test(l)) ?? lines[0] ?? 'no message';
  const text = redactUrls(line.replace(/^(fatal|error):\s*/i, ''));
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}

const NOT_FOUND = [
  /repository not found/i,
  /does not appear to be a git repository/i,
  /repository '.*' (not found|does not exist)/i,
  /returned error: 404/i,
  // GitHub answers 401 for a repository that is missing or private.
  /could not read username/i,
];

/** Turns a failed git run into the catalogue's upstream errors. */
export function gitFailure(error: unknown, repoLabel: string, action: string, timeoutMs: number): Error {
  if (!(error instanceof GitCommandError)) return error as Error;
  if (error.timedOut) return new UpstreamTimeoutError(`git ${action} of ${repoLabel} timed out after ${timeoutMs} ms`);
  if (NOT_FOUND.some((re) => re.test(error.stderr))) {
    return new UpstreamError(`repository not found: ${repoLabel} (git: ${gitReason(error.stderr)})`);
  }
  return new UpstreamError(`git ${action} of ${repoLabel} failed: ${gitReason(error.stderr)}`);
}
