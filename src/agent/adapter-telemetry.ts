import { adapterCalls, timed } from '../observability/metrics';
import { withSpan } from '../observability/tracing';
import type { Adapter } from './adapters/adapter';

/**
 * The adapter with every call into it (create, status, remove, replace, metadata, and any the
 * interface gains) timed for /metrics and traced as `adapter <type> <call>`, so a deploy's trace
 * shows the agent's request, the adapter call, and the engine calls it made. `close` is not a
 * call into the orchestrator and passes as it is.
 */
export function observedAdapter(adapter: Adapter): Adapter {
  return new Proxy(adapter, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || property === 'close' || typeof property !== 'string') return value;
      const call = property;
      return (...args: unknown[]) =>
        withSpan(`adapter ${target.type} ${call}`, { 'platform.adapter': target.type }, () =>
          timed(adapterCalls, { adapter: target.type, call }, () =>
            Promise.resolve((value as (...a: unknown[]) => unknown).apply(target, args)),
          ),
        );
    },
  });
}
