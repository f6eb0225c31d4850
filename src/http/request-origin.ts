import type { IncomingMessage } from 'node:http';
import type { Identity } from '../auth/token.service';
import type { AppDeps } from '../context';
import { originOf } from '../net/request-origin';
import { SESSION_COOKIE } from './console-session';

/** The door and address for the audit log; a token's first use is recorded here. */
export function withOrigin(deps: AppDeps, req: IncomingMessage, identity: Identity, door: 'rest' | 'graphql'): Identity {
  const viaConsole = req.headers.authorization === undefined && (req.headers.cookie ?? '').includes(`${SESSION_COOKIE}=`);
  const origin = originOf(req, viaConsole ? 'console' : door, deps.automation.clientAddress);
  void deps.automation.audit.noteTokenUse(identity, origin);
  return { ...identity, origin };
}
