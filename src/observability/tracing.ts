import { SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

/** The API alone: with tracing off these helpers only call the work, one boolean test. */
let enabled = false;

export function markTracingEnabled(): void {
  enabled = true;
}

export function tracingEnabled(): boolean {
  return enabled;
}

export function withSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  if (!enabled) return work();
  return trace.getTracer('platform').startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code === 'string') span.setAttribute('error.type', code);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** Names the request's server span after its route template (`GET /apps/:id`), as OpenTelemetry's HTTP conventions do. */
export function nameServerSpan(method: string, route: string): void {
  if (!enabled) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  span.updateName(`${method} ${route}`);
  span.setAttribute('http.route', route);
}

export function traceFields(): Record<string, string> {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || !trace.isSpanContextValid(context)) return {};
  return { trace_id: context.traceId, span_id: context.spanId };
}
