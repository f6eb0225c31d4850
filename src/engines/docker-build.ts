import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import dockerignore from '@balena/dockerignore';
import { pack } from 'tar-fs';
import { PayloadTooLargeError, ValidationError } from '../errors';

/** What POST /build is asked to make. */
export interface BuildRequest {
  /** The context as a tar file (packContext), made when the app was. */
  contextTar: string;
  /** Relative to the context, `/` separators; default `Dockerfile`. */
  dockerfile?: string;
  tag: string;
  args?: Record<string, string>;
  target?: string;
  labels?: Record<string, string>;
}

/** A failed build: 422 on `build`, naming `what` failed when one is given. */
export function buildFailed(what: string, reason: string): ValidationError {
  return new ValidationError(`${what ? `${what}: ` : ''}the build failed: ${reason}`, ['build']);
}

/** One line of a build's progress, as the engine streams it. */
interface BuildMessage {
  stream?: string;
  status?: string;
  error?: string;
  errorDetail?: { message?: string };
  aux?: { ID?: string };
}

/**
 * The build context as a tar stream: the directory's files less what its `.dockerignore`
 * excludes (the engine's own matcher rules, via @balena/dockerignore), never the Dockerfile or
 * `.dockerignore` themselves (the engine needs them, as the docker CLI sends them). Symbolic links
 * go in as links: the engine never follows them out of the context.
 */
export function contextArchive(contextDir: string, dockerfile: string, maxBytes: number): Readable {
  const rules = dockerignore({ ignorecase: false });
  try {
    rules.add(readFileSync(path.join(contextDir, '.dockerignore'), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const keep = new Set([dockerfile, '.dockerignore']);
  const archive = pack(contextDir, {
    ignore: (name) => {
      const rel = path.relative(contextDir, name).split(path.sep).join('/');
      return rel !== '' && !keep.has(rel) && rules.ignores(rel);
    },
  });
  let total = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > maxBytes)
        done(new PayloadTooLargeError(`the build context is larger than ${maxBytes} bytes (APP_BUILD_CONTEXT_MAX_BYTES)`));
      else done(null, chunk);
    },
  });
  archive.on('error', (error) => limit.destroy(error));
  return archive.pipe(limit);
}

/**
 * Writes the context's tar (contextArchive) to `file`: made while the request that names the
 * context runs (its checkout exists only then, and a context over the limit is that request's
 * 413), sent to the engine when the build runs.
 */
export async function packContext(contextDir: string, dockerfile: string, maxBytes: number, file: string): Promise<void> {
  await pipeline(contextArchive(contextDir, dockerfile, maxBytes), createWriteStream(file, { mode: 0o600 }));
}

/** The query of POST /build (API 1.41): intermediate containers always removed, even on failure. */
export function buildQuery(request: BuildRequest): Record<string, string | boolean | undefined> {
  return {
    t: request.tag,
    dockerfile: request.dockerfile ?? 'Dockerfile',
    buildargs: request.args && Object.keys(request.args).length ? JSON.stringify(request.args) : undefined,
    target: request.target,
    labels: request.labels ? JSON.stringify(request.labels) : undefined,
    rm: true,
    forcerm: true,
    // Base images come from the engine (no registry here, and none needed for a local FROM).
    pull: false,
  };
}

/**
 * Reads a build's progress stream to its end. The engine answers 200 before it runs a step, so
 * a failing RUN or a missing base image arrives as an `error` line: it becomes a 422 naming the
 * service (the file it came with is what failed). Each output line goes to `onLine`.
 */
export async function readBuildProgress(what: string, body: Readable, onLine: (line: string) => void): Promise<string | null> {
  let rest = '';
  let imageId: string | null = null;
  const handle = (raw: string): void => {
    if (!raw.trim()) return;
    let message: BuildMessage;
    try {
      message = JSON.parse(raw) as BuildMessage;
    } catch {
      return; // not a progress object: nothing to act on
    }
    const error = message.errorDetail?.message ?? message.error;
    if (error) throw buildFailed(what, error.trim());
    if (message.aux?.ID) imageId = message.aux.ID;
    const text = (message.stream ?? message.status ?? '').replace(/\n+$/, '');
    for (const line of text.split('\n')) if (line.trim()) onLine(line);
  };
  for await (const chunk of body) {
    const lines = (rest + (chunk as Buffer).toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    lines.forEach(handle);
  }
  handle(rest);
  return imageId;
}
