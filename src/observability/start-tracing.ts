import { tracingSettings } from '../config';

let stop: (() => Promise<void>) | undefined;

/** Runs before http, undici, pg and graphql load, so the instrumentations can wrap them. */
export function startTracing(defaultServiceName: string): void {
  if (stop) return;
  const settings = tracingSettings(defaultServiceName);
  if (!settings) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the SDK loads only when tracing is on
  const sdk = require('./otel-sdk') as typeof import('./otel-sdk');
  stop = sdk.startSdk(settings);
}

/** Sends the spans still buffered; called on a clean stop. */
export async function stopTracing(): Promise<void> {
  await stop?.().catch(() => undefined);
}
