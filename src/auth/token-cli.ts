import { parseConfig } from '../config';
import { entities } from '../entities';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '../db/embedded';
import { migrations } from '../db/migrations/index';
import { openOrm } from '../db/orm';
import { createLogger } from '../logger';
import { SCOPES, type Scope } from './api-token.entity';
import { TokenService } from './token.service';

const USAGE = `usage:
  npm run token -- create <name> [--scope read|write|deploy|admin] [--username U] [--email E]
  npm run token -- list
  npm run token -- revoke <id>

Uses DATABASE_URL, or the embedded PostgreSQL of DATA_DIR (the running service's, or its own).`;

/** `npm run token`: issue, list and revoke API tokens from the shell. */
async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const options = parseFlags(rest);
  if (!command || options.help) return void console.log(USAGE);
  const config = parseConfig();
  const log = createLogger('warn', 'token');
  let url = config.databaseUrl ?? (await runningEmbeddedUrl(config.dataDir));
  const embedded = url ? undefined : await startEmbeddedPostgres(config.dataDir, log);
  url ??= embedded!.url;
  const orm = await openOrm({ clientUrl: url, entities, migrations, log });
  try {
    const tokens = new TokenService(orm.em.fork());
    if (command === 'create') {
      const name = options.positional[0];
      if (!name) throw new Error('create needs a name');
      const scope = (options.scope ?? 'read') as Scope;
      if (!SCOPES.includes(scope)) throw new Error(`--scope must be one of ${SCOPES.join(', ')}`);
      const issued = await tokens.issue({ name, username: options.username, email: options.email, scopes: [scope] });
      console.log(`token ${issued.id} (${issued.name}, ${scope}); shown once:\n${issued.token}`);
    } else if (command === 'list') {
      for (const t of await tokens.list()) {
        console.log(
          `${t.id}\t${t.name}\t${t.username}\t${t.scopes.join(',')}\t${t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : 'active'}`,
        );
      }
    } else if (command === 'revoke') {
      const id = Number(options.positional[0]);
      if (!Number.isInteger(id)) throw new Error('revoke needs a token id');
      const revoked = await tokens.revoke(id);
      console.log(`token ${revoked.id} (${revoked.name}) revoked`);
    } else {
      throw new Error(`unknown command ${command}\n${USAGE}`);
    }
  } finally {
    await orm.close(true);
    await embedded?.stop();
  }
}

function parseFlags(args: string[]) {
  const out: { positional: string[]; scope?: string; username?: string; email?: string; help?: boolean } = { positional: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--help' || arg === '-h') out.help = true;
    else if (arg === '--scope' || arg === '--username' || arg === '--email') out[arg.slice(2) as 'scope'] = args[++i];
    else out.positional.push(arg);
  }
  return out;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
