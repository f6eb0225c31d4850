// First: when OTEL_EXPORTER_OTLP_ENDPOINT is set, tracing starts before anything it instruments loads.
import '../observability/trace-agent';
import { createServer } from 'node:http';
import { createLogger, exitOnFatal } from '../logger';
import { answerClientErrorsAsJson } from '../net/client-errors';
import { stopTracing } from '../observability/start-tracing';
import { onStopSignal, stoppedWhileStarting } from '../stop-signals';
import { createAgentApp } from './app';
import { AgentConfigError, parseAgentConfig } from './config';
import { rotateCredentials } from './credentials';
import { DatabaseInUseError } from './database-lock';
import { listenHttps } from './server';

/** How long a stop lets requests in progress (a deploy on a slow orchestrator) finish: under docker stop's 10 s. */
const DRAIN_MS = 8_000;

/** `rotate-credentials` prints the new token and exits; a running agent picks up the new password within a second. */
async function main(): Promise<void> {
  const config = parseAgentConfig();
  const log = createLogger(config.logLevel, 'platform-agent');
  const command = process.argv[2];
  if (command === 'rotate-credentials') {
    const credentials = await rotateCredentials(config.dataDir, config.publicUrl, log);
    printToken(credentials.token, config.dataDir);
    return;
  }
  if (command !== undefined) throw new AgentConfigError([`unknown command "${command}" (known: rotate-credentials)`]);

  const app = await createAgentApp(config, { log });
  const listening = await listenHttps(app.handler, app.credentials, config.host, config.port).catch(async (error: unknown) => {
    await app.close();
    throw error;
  });
  log.info({ listen: listening.url, publicUrl: config.publicUrl, adapter: config.adapter }, 'agent listening');
  printToken(app.credentials.token, config.dataDir);
  const metrics = app.metricsHandler ? createServer(app.metricsHandler) : undefined;
  if (metrics && config.metricsPort !== undefined) {
    answerClientErrorsAsJson(metrics);
    metrics.listen(config.metricsPort, config.metricsHost, () => {
      const address = metrics.address();
      const port = typeof address === 'object' && address ? address.port : config.metricsPort;
      log.info({ host: config.metricsHost, port }, `agent metrics on http://${config.metricsHost}:${port}/metrics`);
    });
  }

  let stopping: Promise<void> | undefined;
  const close = () =>
    (stopping ??= (async () => {
      metrics?.close();
      metrics?.closeAllConnections();
      await listening.close(DRAIN_MS);
      await app.close();
      await stopTracing();
    })());
  const stop = (signal: string) => {
    log.info({ signal }, 'stopping');
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  onStopSignal(stop);
  exitOnFatal(log, close);
}

function printToken(token: string, dataDir: string): void {
  process.stdout.write(
    `\nAgent token (also in ${dataDir}/token); add it to the main service as a deployment target's auth_blob:\n` +
      `----- BEGIN AGENT TOKEN -----\n${token}\n----- END AGENT TOKEN -----\n\n`,
  );
}

main().catch((error: unknown) => {
  if (stoppedWhileStarting()) return;
  if (error instanceof AgentConfigError || error instanceof DatabaseInUseError) process.stderr.write(`${error.message}\n`);
  else process.stderr.write(`agent failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
