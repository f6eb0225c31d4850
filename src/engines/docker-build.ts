import { createWriteStream, readFileSync } from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import dockerignore from '@balena/dockerignore';
import { pack } from 'tar-fs';
import { PayloadTooLargeError, ValidationError } from '../errors';

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

export function buildFailed(what: string, reason: string): ValidationError {
  return new ValidationError(`${what ? `${what}: ` : ''}the build failed: ${reason}`, ['build']);
}

interface BuildMessage {
  stream?: string;
  status?: string;
  error?: string;
  errorDetail?: { message?: string };
  aux?: { ID?: string };
}

/** The Dockerfile and `.dockerignore` always go, as the docker CLI sends them; links go as links, never followed out. */
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

/** Packed during the request: its checkout exists only then, and an oversized context is that request's 413. */
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

/** The engine answers 200 before it runs a step, so a failure arrives as an `error` line: a 422. */
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
