// First: when OTEL_EXPORTER_OTLP_ENDPOINT is set, tracing starts before anything it instruments loads.
import './observability/trace-main';
import { createServer } from 'node:http';
import { createApp } from './app';
import { ConfigError, parseConfig } from './config';
import { answerClientErrorsAsJson } from './net/client-errors';
import { closeServer } from './net/close-server';
import { createLogger, exitOnFatal } from './logger';
import { stopTracing } from './observability/start-tracing';
import { onStopSignal, stoppedWhileStarting } from './stop-signals';

async function main(): Promise<void> {
  let config;
  try {
    config = parseConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  const app = await createApp(config, { log });
  const server = createServer(app.handler);
  server.keepAliveTimeout = 65_000;
  app.attach(server);
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    log.info({ host: config.host, port }, `platform listening on http://${config.host}:${port}`);
  });

  const legacy = app.legacyHandler && config.legacyUi ? createServer(app.legacyHandler) : undefined;
  if (legacy && config.legacyUi) {
    answerClientErrorsAsJson(legacy);
    const { host, port: legacyPort, scope } = config.legacyUi;
    legacy.listen(legacyPort, host, () => {
      const address = legacy.address();
      const port = typeof address === 'object' && address ? address.port : legacyPort;
      log.warn({ host, port, scope }, `legacy UI listener on http://${host}:${port}: no token, every call acts with scope ${scope}`);
    });
  }

  const metrics = app.metricsHandler && config.metrics.port !== undefined ? createServer(app.metricsHandler) : undefined;
  if (metrics && config.metrics.port !== undefined) {
    answerClientErrorsAsJson(metrics);
    const { host, port: metricsPort } = config.metrics;
    metrics.listen(metricsPort, host, () => {
      const address = metrics.address();
      const port = typeof address === 'object' && address ? address.port : metricsPort;
      log.info({ host, port }, `metrics on http://${host}:${port}/metrics`);
    });
  }

  let stopping: Promise<void> | undefined;
  const close = () => (stopping ??= closeAll());
  const closeAll = async () => {
    const listeners = [server, ...(legacy ? [legacy] : []), ...(metrics ? [metrics] : [])];
    const closed = Promise.all(listeners.map((listener) => closeServer(listener)));
    // Subscriptions never end on their own: end them, so the server's close can complete.
    await app.closeStreams();
    await closed;
    await app.close();
    await stopTracing();
  };
  const stop = async (signal: string) => {
    log.info({ signal }, 'stopping');
    await close();
    process.exit(0);
  };
  onStopSignal((signal) => void stop(signal));
  exitOnFatal(log, close);
}

main().catch((error: unknown) => {
  if (stoppedWhileStarting()) return;
  process.stderr.write(`platform failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
