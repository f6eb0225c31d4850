import { SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

/**
 * What the code around a request asks of tracing, through the OpenTelemetry API alone: the SDK is
 * loaded only when tracing is on (start-tracing.ts), and when it is off these helpers do nothing
 * but call the work, so a process without OTEL_EXPORTER_OTLP_ENDPOINT pays one boolean test.
 */
let enabled = false;

/** Called once the SDK runs: spans are made from then on. */
export function markTracingEnabled(): void {
  enabled = true;
}

export function tracingEnabled(): boolean {
  return enabled;
}

/** Runs `work` inside a span named `name` (ended when it settles; an error marks it failed). */
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

/** The active trace and span ids, for a log line; nothing outside a span. */
export function traceFields(): Record<string, string> {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || !trace.isSpanContextValid(context)) return {};
  return { trace_id: context.traceId, span_id: context.spanId };
}
