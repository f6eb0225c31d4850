import { RegistryAuth, type RegistryCredentials } from './registry-auth';
import { parseJson, send, upstream, type HttpContext, type HttpResponse } from './registry-http';

/** GETs against one registry's base URL, answering auth challenges (one retry per request). */
export class RegistrySession {
  private readonly auth: RegistryAuth;

  constructor(
    readonly base: URL,
    credentials: RegistryCredentials,
    readonly ctx: HttpContext,
  ) {
    this.auth = new RegistryAuth(credentials, base, ctx);
  }

  /** `path` is relative to the endpoint (a registry behind a path prefix keeps its prefix). */
  url(path: string): URL {
    const url = new URL(this.base);
    const [pathname, query] = path.split('?', 2);
    url.pathname = `${this.base.pathname.replace(/\/+$/, '')}${pathname}`;
    url.search = query ?? '';
    return url;
  }

  sameOrigin(url: URL): boolean {
    return url.origin === this.base.origin;
  }

  async get(target: string | URL, scope?: string, accept?: string): Promise<HttpResponse> {
    const url = typeof target === 'string' ? this.url(target) : target;
    const response = await send(url, { headers: await this.headers(scope, accept) }, this.ctx);
    if (response.status !== 401 || !this.auth.answer(response, scope)) return response;
    return send(url, { headers: await this.headers(scope, accept) }, this.ctx);
  }

  /** Any status but 200 is returned for the caller to judge. */
  async getJson(target: string | URL, scope?: string): Promise<{ response: HttpResponse; data: unknown }> {
    const response = await this.get(target, scope);
    return { response, data: response.status === 200 ? parseJson(response, this.ctx) : undefined };
  }

  failure(response: HttpResponse): Error {
    const what = `GET ${response.url.pathname}`;
    if (response.status === 401 || response.status === 403) {
      return upstream(this.ctx, `authentication failed (${response.status} from ${what})`);
    }
    return upstream(this.ctx, `unexpected status ${response.status} from ${what}`);
  }

  private async headers(scope?: string, accept = 'application/json'): Promise<Record<string, string>> {
    const authorization = await this.auth.authorization(scope);
    const headers: Record<string, string> = { accept, 'user-agent': 'platform-registry-client' };
    if (authorization) headers.authorization = authorization;
    return headers;
  }
}
