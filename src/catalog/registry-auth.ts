import type { IncomingHttpHeaders } from 'node:http';
import { parseJson, send, upstream, type HttpContext, type HttpResponse } from './registry-http';

export interface RegistryCredentials {
  username?: string | null;
  password?: string | null;
  token?: string | null;
}

export interface Challenge {
  scheme: 'basic' | 'bearer';
  params: Record<string, string>;
}

export function parseChallenge(header: IncomingHttpHeaders['www-authenticate'] | string[]): Challenge | null {
  for (const value of Array.isArray(header) ? header : header ? [header] : []) {
    const match = /^\s*(basic|bearer)\b(.*)$/is.exec(value);
    if (!match) continue;
    const params: Record<string, string> = {};
    for (const param of match[2].matchAll(/([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/g)) {
      params[param[1].toLowerCase()] = param[2] !== undefined ? param[2].replace(/\\(.)/g, '$1') : param[3];
    }
    return { scheme: match[1].toLowerCase() as Challenge['scheme'], params };
  }
  return null;
}

// One search's state: the scheme is learnt from the first 401, and bearer tokens are kept per scope for the
// rest of the search, so N tag lists cost N token requests, not 2N round trips.
export class RegistryAuth {
  private basic = false;
  private bearer: { realm: URL; service?: string } | null = null;
  private readonly tokens = new Map<string, Promise<string>>();

  constructor(
    private readonly credentials: RegistryCredentials,
    private readonly registryUrl: URL,
    private readonly ctx: HttpContext,
  ) {}

  async authorization(scope?: string): Promise<string | undefined> {
    if (this.basic) return this.basicHeader();
    if (this.bearer) return `Bearer ${await this.token(scope ?? '', scope ? [scope] : [])}`;
    return this.credentials.token ? `Bearer ${this.credentials.token}` : undefined;
  }

  /** Learns from a 401; true when a retry can succeed where the last request did not. */
  answer(response: HttpResponse, scope?: string): boolean {
    const challenge = parseChallenge(response.headers['www-authenticate']);
    if (challenge?.scheme === 'basic') {
      if (this.basic || !this.basicHeader()) return false;
      this.basic = true;
      return true;
    }
    if (challenge?.scheme !== 'bearer' || !challenge.params.realm) return false;
    const key = scope ?? '';
    if (this.bearer && this.tokens.has(key)) return false;
    let realm: URL;
    try {
      realm = new URL(challenge.params.realm);
    } catch {
      throw upstream(this.ctx, 'the token realm in WWW-Authenticate is not a URL');
    }
    this.bearer = { realm, service: challenge.params.service };
    // The registry's own scope joins ours: it knows best what the request needs.
    const scopes = [...new Set([scope, challenge.params.scope].filter((s): s is string => !!s))];
    void this.token(key, scopes).catch(() => undefined);
    return true;
  }

  private token(key: string, scopes: string[]): Promise<string> {
    let token = this.tokens.get(key);
    if (!token) {
      token = this.fetchToken(scopes);
      this.tokens.set(key, token);
    }
    return token;
  }

  private async fetchToken(scopes: string[]): Promise<string> {
    const { realm, service } = this.bearer!;
    const url = new URL(realm);
    if (service) url.searchParams.set('service', service);
    for (const scope of scopes) url.searchParams.append('scope', scope);
    const basic = this.basicHeader();
    const stored = this.credentials.token;
    // Stored credentials go only to the registry's own host or over HTTPS, never to any realm a registry names.
    const ownHost =
      realm.hostname === this.registryUrl.hostname && !(this.registryUrl.protocol === 'https:' && realm.protocol !== 'https:');
    if ((basic || stored) && realm.protocol !== 'https:' && !ownHost) {
      throw upstream(this.ctx, "the token realm is neither https nor the registry's own host; credentials are not sent there");
    }
    let response: HttpResponse;
    if (basic) {
      response = await send(url, { headers: { authorization: basic } }, this.ctx);
    } else if (stored) {
      // A stored token alone is an identity (refresh) token in Docker's OAuth2 flow; a realm that
      // does not speak OAuth2 gets it as a bearer on the plain GET instead.
      const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: stored, client_id: 'platform' });
      if (service) form.set('service', service);
      if (scopes.length) form.set('scope', scopes.join(' '));
      const headers = { 'content-type': 'application/x-www-form-urlencoded' };
      response = await send(realm, { method: 'POST', headers, body: form.toString() }, this.ctx);
      if (response.status >= 300) response = await send(url, { headers: { authorization: `Bearer ${stored}` } }, this.ctx);
    } else {
      response = await send(url, {}, this.ctx);
    }
    if (response.status === 401 || response.status === 403) {
      throw upstream(this.ctx, `the token service refused the credentials (${response.status})`);
    }
    if (response.status !== 200) throw upstream(this.ctx, `the token service answered ${response.status}`);
    const body = parseJson(response, this.ctx) as { token?: unknown; access_token?: unknown } | null;
    const token = body?.token ?? body?.access_token;
    if (typeof token !== 'string' || !token) throw upstream(this.ctx, 'the token service sent no token');
    return token;
  }

  /** A username with a token but no password uses the token as the password (personal access tokens). */
  private basicHeader(): string | undefined {
    const { username, password, token } = this.credentials;
    const secret = password || (username ? token : undefined);
    if (!username || !secret) return undefined;
    return `Basic ${Buffer.from(`${username}:${secret}`).toString('base64')}`;
  }
}
