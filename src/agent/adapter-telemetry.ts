import { adapterCalls, timed } from '../observability/metrics';
import { withSpan } from '../observability/tracing';
import type { Adapter } from './adapters/adapter';

/** Traced as `adapter <type> <call>`, between the agent's request and its engine calls; `close` is no orchestrator call. */
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
