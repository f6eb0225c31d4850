import { enginePath, type EngineHttp } from './docker-http';
import type { ContainerInspect } from './docker-types';

export type LogStream = 'stdout' | 'stderr';

export interface LogsOptions {
  since?: Date | number | string;
  until?: Date | number | string;
  tail?: number | 'all';
  timestamps?: boolean;
  /**
   * Stop reading (and close the answer) once this many entries passed `keep`: the first lines
   * after a time need not read the rest of a long log.
   */
  max?: number;
  keep?: (entry: LogEntry) => boolean;
}

export interface LogEntry {
  stream: LogStream;
  /** Verbatim (RFC 3339 with nanoseconds) so it can be a `since` cursor. */
  timestamp: string | null;
  message: string;
}

const HEADER_BYTES = 8;
const STREAMS: Record<number, LogStream> = { 0: 'stdout', 1: 'stdout', 2: 'stderr' };

/** Without a TTY the engine frames (stream byte, 3 zeros, u32 BE length, payload); a chunk may end inside one. */
export class LogDemuxer {
  private pending: Buffer = Buffer.alloc(0);
  private readonly partial: Record<LogStream, string> = { stdout: '', stderr: '' };

  constructor(
    private readonly multiplexed: boolean,
    private readonly timestamps: boolean,
  ) {}

  push(chunk: Buffer): LogEntry[] {
    if (!this.multiplexed) return this.text('stdout', chunk.toString('utf8'));
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const entries: LogEntry[] = [];
    while (this.pending.length >= HEADER_BYTES) {
      const size = this.pending.readUInt32BE(4);
      if (this.pending.length < HEADER_BYTES + size) break;
      const stream = STREAMS[this.pending[0]] ?? 'stdout';
      const payload = this.pending.subarray(HEADER_BYTES, HEADER_BYTES + size).toString('utf8');
      this.pending = this.pending.subarray(HEADER_BYTES + size);
      entries.push(...this.text(stream, payload));
    }
    return entries;
  }

  end(): LogEntry[] {
    const entries: LogEntry[] = [];
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partial[stream]) entries.push(this.entry(stream, this.partial[stream]));
      this.partial[stream] = '';
    }
    return entries;
  }

  private text(stream: LogStream, text: string): LogEntry[] {
    const lines = (this.partial[stream] + text).split('\n');
    this.partial[stream] = lines.pop() ?? '';
    return lines.map((line) => this.entry(stream, line));
  }

  private entry(stream: LogStream, line: string): LogEntry {
    const clean = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (!this.timestamps) return { stream, timestamp: null, message: clean };
    const space = clean.indexOf(' ');
    if (space < 0) return { stream, timestamp: clean, message: '' };
    return { stream, timestamp: clean.slice(0, space), message: clean.slice(space + 1) };
  }
}

export function demuxLogs(data: Buffer, multiplexed: boolean, timestamps: boolean): LogEntry[] {
  const demuxer = new LogDemuxer(multiplexed, timestamps);
  return [...demuxer.push(data), ...demuxer.end()];
}

/** `since`/`until` as the engine takes them: Unix seconds with a fraction, or its own RFC 3339 text. */
export function engineTime(value: Date | number | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Date) return (value.getTime() / 1000).toFixed(3);
  return String(value);
}

export async function readLogs(engine: EngineHttp, container: ContainerInspect, options: LogsOptions): Promise<LogEntry[]> {
  const timestamps = options.timestamps ?? true;
  const response = await engine.stream('GET', enginePath('containers', container.Id, 'logs'), {
    query: {
      stdout: true,
      stderr: true,
      timestamps,
      since: engineTime(options.since),
      until: engineTime(options.until),
      tail: options.tail,
    },
  });
  // Only a TTY container's stream is unframed; the content type does not say so before API 1.42.
  const demuxer = new LogDemuxer(!container.Config.Tty, timestamps);
  const keep = options.keep ?? (() => true);
  const max = options.max ?? Infinity;
  const entries: LogEntry[] = [];
  for await (const chunk of response.body) {
    for (const entry of demuxer.push(chunk as Buffer)) if (keep(entry)) entries.push(entry);
    if (entries.length >= max) {
      // Leaving the loop closes the answer: the engine stops sending the rest.
      return entries.slice(0, max);
    }
  }
  return [...entries, ...demuxer.end().filter(keep)].slice(0, max);
}
