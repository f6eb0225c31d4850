import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import type { TracingSettings } from '../config';
import { markTracingEnabled } from './tracing';

// Probes and scrapes come every few seconds and say nothing about a request: no spans for them.
const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

/** Traces alone: metrics stay Prometheus's and logs stay pino's. */
export function startSdk(settings: TracingSettings): () => Promise<void> {
  const sdk = new NodeSDK({
    serviceName: settings.serviceName,
    traceExporter: new OTLPTraceExporter({ url: `${settings.endpoint.replace(/\/+$/, '')}/v1/traces` }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED.has((req.url ?? '/').split('?')[0]),
      }),
      // Background pollers (deployment statuses, engine events) would start a trace per poll.
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // Statement text without parameter values: those may be secrets or what a user typed.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true, mergeItems: true }),
    ],
  });
  sdk.start();
  markTracingEnabled();
  return () => sdk.shutdown();
}
