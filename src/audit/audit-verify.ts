import { parseConfig } from '../config';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '../db/embedded';
import { createLogger } from '../logger';
import { verifyAuditChain } from './audit-chain';

/** `npm run audit:verify`: exits 0 when the chain is intact, 1 naming each bad record, 2 when it cannot check. */
async function main(): Promise<void> {
  const config = parseConfig();
  const log = createLogger('warn', 'audit-verify');
  let url = config.databaseUrl ?? (await runningEmbeddedUrl(config.dataDir));
  const embedded = url ? undefined : await startEmbeddedPostgres(config.dataDir, log);
  url ??= embedded!.url;
  try {
    const report = await verifyAuditChain(url);
    for (const problem of report.problems) console.log(`${problem.kind}: ${problem.message}`);
    if (report.problems.length) {
      console.log(`audit log: ${report.rows} records, ${report.problems.length} problems: the log was tampered with`);
      process.exitCode = 1;
    } else {
      console.log(`audit log: ${report.rows} records, chain intact`);
    }
  } finally {
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`audit:verify failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
});
