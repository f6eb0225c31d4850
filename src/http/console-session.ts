import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { parseCookie, stringifySetCookie } from 'cookie';
import { SCOPES } from '../auth/api-token.entity';
import { ConsoleSessionService, csrfMatches, csrfTokenFor } from '../auth/session.service';
import { TokenService, type Identity } from '../auth/token.service';
import type { AppDeps } from '../context';
import { ForbiddenError, MethodNotAllowedError, UnauthenticatedError, ValidationError } from '../errors';
import { parseJson, readBody } from '../net/request-body';
import { sendJson } from './answers';
import { originOf } from '../net/request-origin';

export const SESSION_PATH = '/console/session';
export const SESSION_COOKIE = 'platform_session';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** CORS never allows credentials, so no other origin can use this cookie or read its CSRF token. */
export async function handleConsoleSession(deps: AppDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const sessions = new ConsoleSessionService(deps.orm.em.fork(), deps.config.consoleSessionTtlSeconds);
  switch (req.method) {
    case 'POST': {
      const body = parseJson(await readBody(req, 16 * 1024)) as { token?: unknown } | undefined;
      const token = body?.token;
      if (typeof token !== 'string' || token.trim() === '')
        throw new ValidationError('token is required: the API token to sign in with', ['token']);
      const identity = await new TokenService(deps.orm.em.fork(), deps.config.adminToken).authenticate(token.trim());
      if (!identity) throw new UnauthenticatedError('the token is not valid (unknown or revoked)');
      const opened = await sessions.open(identity);
      await recordSession(deps, req, identity, 'signIn');
      res.setHeader('set-cookie', sessionCookie(req, opened.secret, opened.expiresAt));
      return sendJson(res, 200, describe({ ...identity, expiresAt: opened.expiresAt }, opened.secret), { 'cache-control': 'no-store' });
    }
    case 'GET': {
      const secret = sessionSecret(req);
      const identity = secret ? await sessions.identify(secret) : null;
      if (!secret || !identity) throw new UnauthenticatedError('not signed in, or the session has ended');
      return sendJson(res, 200, describe(identity, secret), { 'cache-control': 'no-store' });
    }
    case 'DELETE': {
      const secret = sessionSecret(req);
      if (secret) {
        checkCsrf(req, secret);
        const identity = await sessions.identify(secret);
        await sessions.close(secret);
        if (identity) await recordSession(deps, req, identity, 'signOut');
      }
      res.setHeader('set-cookie', sessionCookie(req, '', new Date(0)));
      res.writeHead(204).end();
      return;
    }
    default:
      throw new MethodNotAllowedError(`${req.method} is not allowed on ${SESSION_PATH}`);
  }
}

/** For a request without an Authorization header; an unsafe method must also carry the CSRF token. */
export async function identifySession(deps: AppDeps, req: IncomingMessage): Promise<Identity | undefined> {
  const secret = sessionSecret(req);
  if (secret === undefined) return undefined;
  const identity = await new ConsoleSessionService(deps.orm.em.fork(), deps.config.consoleSessionTtlSeconds).identify(secret);
  if (!identity) throw new UnauthenticatedError('the console session has ended (expired, signed out, or its token revoked): sign in again');
  if (!SAFE_METHODS.has(req.method ?? 'GET')) checkCsrf(req, secret);
  return identity;
}

/** Signing in and out are recorded in the audit log, though they change no resource. */
async function recordSession(deps: AppDeps, req: IncomingMessage, identity: Identity, operation: 'signIn' | 'signOut'): Promise<void> {
  await deps.automation.changes.settled({
    identity,
    origin: originOf(req, 'console', deps.automation.clientAddress),
    operation,
    input: {},
    result: { id: identity.tokenId },
  });
}

function checkCsrf(req: IncomingMessage, secret: string): void {
  const given = req.headers[CSRF_HEADER];
  if (typeof given !== 'string' || !csrfMatches(secret, given)) {
    throw new ForbiddenError(`a console request must send its session's CSRF token in the ${CSRF_HEADER} header`);
  }
}

function sessionSecret(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  return parseCookie(header)[SESSION_COOKIE] || undefined;
}

function sessionCookie(req: IncomingMessage, value: string, expires: Date): string {
  return stringifySetCookie({
    name: SESSION_COOKIE,
    value,
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    expires,
    secure: isHttps(req),
  });
}

/** Over TLS here, or behind a proxy that says the browser's request was HTTPS. */
function isHttps(req: IncomingMessage): boolean {
  return (req.socket as Partial<TLSSocket>).encrypted === true || req.headers['x-forwarded-proto'] === 'https';
}

function describe(identity: Identity & { expiresAt: Date }, secret: string) {
  return {
    username: identity.username,
    email: identity.email,
    scopes: SCOPES.filter((scope) => identity.scopes.has(scope)),
    expiresAt: identity.expiresAt.toISOString(),
    csrfToken: csrfTokenFor(secret),
  };
}
