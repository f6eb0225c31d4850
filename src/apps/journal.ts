import { readLogs, type LogEntry } from '../engines/docker-logs';
import type { ContainerInspect } from '../engines/docker-types';
import type { DockerClient } from '../engines/docker-client';
import { BadRequestError } from '../errors';
import type { BuildLine } from './app.entity';
import { LABEL_SERVICE } from './container-labels';

export interface JournalEntry {
  /** ISO-8601 with milliseconds. */
  timestamp: string;
  service: string;
  stream: string;
  message: string;
  /** The engine's time of the line, in nanoseconds: pass it as `?cursor=` for the lines after. */
  cursor: string;
}

export interface JournalQuery {
  /** ISO-8601 time: lines at or after it. */
  since?: string | null;
  /** A `cursor` of an earlier entry: lines strictly after it. */
  cursor?: string | null;
  limit?: number | null;
}

export const DEFAULT_LIMIT = 1000;
const MAX_LIMIT = 10_000;

/** Without since/cursor the last `limit` lines; with them the first `limit` after, so a client polls by cursor. */
export async function readJournal(
  docker: DockerClient,
  labels: Record<string, string>,
  names: Map<string, string>,
  query: JournalQuery,
  /** Build lines kept by the service, merged in by time with stream `build`. */
  recorded: { service: string; lines: BuildLine[] }[] = [],
): Promise<JournalEntry[]> {
  const limit = Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
  if (!Number.isInteger(limit) || limit < 1) throw new BadRequestError('limit must be a whole number, 1 or more', ['limit']);
  const after = query.cursor ? nanos(query.cursor, 'cursor') : null;
  const since = query.since ? nanos(query.since, 'since') : null;
  const from = after ?? since;
  const containers = await docker.listContainers({ all: true, labels });
  const entries: (JournalEntry & { at: bigint })[] = [];
  for (const { service, lines } of recorded) {
    for (const line of lines) {
      const at = nanos(line.timestamp, 'timestamp');
      if ((after !== null && at <= after) || (since !== null && at < since)) continue;
      entries.push({
        at,
        timestamp: new Date(Number(at / 1_000_000n)).toISOString(),
        service,
        stream: 'build',
        message: line.message,
        cursor: line.timestamp,
      });
    }
  }
  await Promise.all(
    containers
      .map(async (container) => {
        const service = names.get(container.Labels[LABEL_SERVICE]) ?? container.Names[0]?.replace(/^\//, '') ?? container.Id;
        const lines = await containerLines(docker, container.Id, from, after, limit);
        for (const line of lines) {
          if (!line.timestamp) continue;
          const at = nanos(line.timestamp, 'timestamp');
          if ((after !== null && at <= after) || (since !== null && at < since)) continue;
          entries.push({
            at,
            timestamp: new Date(Number(at / 1_000_000n)).toISOString(),
            service,
            stream: line.stream,
            message: line.message,
            cursor: line.timestamp,
          });
        }
      })
      .map((p) =>
        p.catch((error: unknown) => {
          // A container removed between the list and the read has no more lines to give.
          if ((error as { httpStatus?: number }).httpStatus === 404) return;
          throw error;
        }),
      ),
  );
  entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const chosen = from === null ? entries.slice(-limit) : entries.slice(0, limit);
  return chosen.map(({ at: _at, ...entry }) => entry);
}

/**
 * The container's lines the page can use: without a time its last `limit`; with one, the first
 * `limit` from it. The engine finds a time by reading its log from the start, so the last
 * `limit` lines (read from the end) are asked first: when they reach back to the time, they hold
 * every line after it, and a poll at the end of a long log costs a page, not the log. Otherwise
 * the read from the time stops after `limit` lines.
 */
async function containerLines(
  docker: DockerClient,
  id: string,
  from: bigint | null,
  after: bigint | null,
  limit: number,
): Promise<LogEntry[]> {
  // Only the Id and whether it has a TTY are read; ours never have one.
  const container = { Id: id, Config: { Tty: false } } as ContainerInspect;
  const tail = await readLogs(docker, container, { tail: limit });
  if (from === null) return tail;
  const oldest = tail.find((line) => line.timestamp);
  if (tail.length < limit || (oldest?.timestamp && nanos(oldest.timestamp, 'timestamp') < from)) return tail;
  const useful = (line: LogEntry) => !!line.timestamp && !(after !== null && nanos(line.timestamp, 'timestamp') <= after);
  return readLogs(docker, container, { since: engineSeconds(from), tail: 'all', keep: useful, max: limit });
}

export function nanos(text: string, field: string): bigint {
  const match = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(text.trim());
  const ms = match ? Date.parse(`${match[1]}${match[3]}`) : NaN;
  if (!match || Number.isNaN(ms)) throw new BadRequestError(`${field} must be an ISO-8601 time such as 2024-01-02T03:04:05.678Z`, [field]);
  return BigInt(ms) * 1_000_000n + BigInt((match[2] ?? '').padEnd(9, '0'));
}

/** The engine's `since`: seconds with a nine-digit fraction. */
function engineSeconds(at: bigint): string {
  return `${at / 1_000_000_000n}.${String(at % 1_000_000_000n).padStart(9, '0')}`;
}
