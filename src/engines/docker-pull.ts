import type { Readable } from 'node:stream';
import { UpstreamError } from '../errors';
import type { RegistryAuth } from './docker-types';

/** base64url, as the engine expects. */
export function registryAuthHeader(auth: RegistryAuth): string {
  return Buffer.from(JSON.stringify(auth), 'utf8').toString('base64url');
}

/** Without a tag or digest the engine would pull every tag of the repository: `latest` it is. */
export function pullQuery(ref: string): { fromImage: string; tag?: string } {
  if (ref.includes('@')) return { fromImage: ref };
  const lastSlash = ref.lastIndexOf('/');
  const hasTag = ref.indexOf(':', lastSlash + 1) >= 0;
  return hasTag ? { fromImage: ref } : { fromImage: ref, tag: 'latest' };
}

interface ProgressLine {
  status?: string;
  error?: string;
  errorDetail?: { message?: string };
}

/** The engine answers 200 as the pull starts, so a later failure arrives only as an `error` line. */
export async function readPullProgress(ref: string, body: Readable): Promise<string[]> {
  const statuses: string[] = [];
  let rest = '';
  const handle = (line: string): void => {
    if (!line.trim()) return;
    let parsed: ProgressLine;
    try {
      parsed = JSON.parse(line) as ProgressLine;
    } catch {
      return; // not a progress object: nothing to act on
    }
    const error = parsed.errorDetail?.message ?? parsed.error;
    if (error) throw new UpstreamError(`pulling image ${ref} failed: ${error}`);
    if (parsed.status) statuses.push(parsed.status);
  };
  for await (const chunk of body) {
    const lines = (rest + (chunk as Buffer).toString('utf8')).split('\n');
    rest = lines.pop() ?? '';
    lines.forEach(handle);
  }
  handle(rest);
  return statuses;
}
