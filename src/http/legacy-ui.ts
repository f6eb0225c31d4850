import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { DialectRow } from '../../rest/route-table';
import { expandScopes, type Identity } from '../auth/token.service';
import type { AppDeps } from '../context';
import { requestUrl } from '../net/request-target';
import { originOf } from '../net/request-origin';
import { sendJson, withRequestLog, type Handler } from './answers';
import { createRestDoor, formErrors } from './rest-door';

/** The original UI sends no credentials: every call acts with LEGACY_UI_SCOPE, so this listener stays on a trusted network. */
export function createLegacyUiHandler(
  deps: AppDeps,
  schema: GraphQLSchema,
  rows: readonly DialectRow[],
  scope: 'read' | 'write' | 'deploy',
): Handler {
  const identity: Identity = { tokenId: null, username: 'legacy-ui', email: null, scopes: expandScopes([scope]) };
  const rest = createRestDoor(deps, schema, rows, {
    identify: (req) => Promise.resolve({ ...identity, origin: originOf(req, 'legacy-ui', deps.automation.clientAddress) }),
    errorMembers: formErrors,
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = requestUrl(req.url);
    if (url.pathname === '/healthz') return sendJson(res, 200, { status: 'ok' });
    return rest.serve(req, res, url);
  };
  return withRequestLog(deps, handle, rest.fail);
}
