import type { EngineHttp } from './docker-http';
import type { EngineEvent } from './docker-types';

export interface EventsOptions {
  filters?: Record<string, string[]>;
  since?: Date | number;
}

export interface EventSubscription {
  stop(): void;
  /** Settles when the stream ends: resolves after stop(), rejects when the engine goes away. */
  done: Promise<void>;
}

/** Resolves once the engine accepts, so an unreachable engine rejects here; no body timeout, as an idle engine is silent. */
export async function subscribeEvents(
  engine: EngineHttp,
  options: EventsOptions,
  onEvent: (event: EngineEvent) => void,
): Promise<EventSubscription> {
  const abort = new AbortController();
  const since = options.since instanceof Date ? Math.floor(options.since.getTime() / 1000) : options.since;
  const response = await engine.stream('GET', '/events', {
    query: { filters: options.filters, since },
    signal: abort.signal,
    bodyTimeoutMs: 0,
  });
  const done = (async () => {
    let rest = '';
    try {
      for await (const chunk of response.body) {
        const lines = (rest + (chunk as Buffer).toString('utf8')).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) if (line.trim()) onEvent(JSON.parse(line) as EngineEvent);
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    }
  })();
  // The caller may never await `done`; an unhandled rejection must not take the process down.
  done.catch(() => undefined);
  return { stop: () => abort.abort(), done };
}
