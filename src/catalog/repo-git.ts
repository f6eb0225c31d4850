import { spawn } from 'node:child_process';
import { inheritedEnvironment } from '../config';
import { UpstreamError, UpstreamTimeoutError } from '../errors';

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
  timeoutMs: number;
  /** Only for a local path inside TEMPLATE_REPO_ROOTS (or the operator's GITHUB_URL), never a client's URL. */
  allowFile?: boolean;
  env?: Record<string, string>;
}

const OUTPUT_LIMIT = 1024 * 1024;

// A prompt would hang the request until the deadline, and a client's URL must never be fetched with the
// operator's stored credentials. LC_ALL=C keeps messages matchable.
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

// Repositories a client names run no program of theirs; protocol.ext covers where GIT_ALLOW_PROTOCOL is ignored.
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

// git would send the URL's credentials on to the host a redirect names.
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

export function redactUrls(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, '$1');
}

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

export function gitFailure(error: unknown, repoLabel: string, action: string, timeoutMs: number): Error {
  if (!(error instanceof GitCommandError)) return error as Error;
  if (error.timedOut) return new UpstreamTimeoutError(`git ${action} of ${repoLabel} timed out after ${timeoutMs} ms`);
  if (NOT_FOUND.some((re) => re.test(error.stderr))) {
    return new UpstreamError(`repository not found: ${repoLabel} (git: ${gitReason(error.stderr)})`);
  }
  return new UpstreamError(`git ${action} of ${repoLabel} failed: ${gitReason(error.stderr)}`);
}
