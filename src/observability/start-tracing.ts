import { tracingSettings } from '../config';

/**
 * Imported first by main.ts and agent/main.ts: when OTEL_EXPORTER_OTLP_ENDPOINT is set, the
 * OpenTelemetry SDK starts here, before http, undici, pg and graphql are loaded, so that its
 * instrumentations can wrap them. When it is not set, the SDK is never loaded.
 */
let stop: (() => Promise<void>) | undefined;

export function startTracing(defaultServiceName: string): void {
  if (stop) return;
  const settings = tracingSettings(defaultServiceName);
  if (!settings) return;
  // A require, not an import: the SDK and its instrumentations load only on this path.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./otel-sdk') as typeof import('./otel-sdk');
  stop = sdk.startSdk(settings);
}

/** Sends the spans still buffered; called on a clean stop. */
export async function stopTracing(): Promise<void> {
  await stop?.().catch(() => undefined);
}
