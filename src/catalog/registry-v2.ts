import { mapLimit, matches, type RegistryImage, type StepResult } from './registry-image';
import type { RegistrySession } from './registry-session';

const PAGE_SIZE = 100;
// The catalog API has no server-side filter: a registry is searched in its first 5,000 repositories.
const MAX_PAGES = 50;
const TAG_CONCURRENCY = 4;

export async function probeV2(session: RegistrySession): Promise<boolean> {
  const response = await session.get('/v2/');
  if (response.status === 200) return true;
  if (response.status === 404) return false;
  throw session.failure(response);
}

export async function searchCatalog(session: RegistrySession, terms: string[], limit: number): Promise<StepResult> {
  const names: string[] = [];
  let next: URL | null = session.url(`/v2/_catalog?n=${PAGE_SIZE}`);
  for (let page = 0; next && page < MAX_PAGES && names.length < limit; page++) {
    const { response, data } = await session.getJson(next, 'registry:catalog:*');
    if (response.status !== 200) return { ok: false, error: session.failure(response) };
    const repositories = (data as { repositories?: unknown } | null)?.repositories;
    for (const name of Array.isArray(repositories) ? repositories : []) {
      if (typeof name === 'string' && matches(name, terms) && names.length < limit) names.push(name);
    }
    next = nextPage(response.headers.link, response.url);
    // Credentials are for this registry: a next link elsewhere ends the listing.
    if (next && !session.sameOrigin(next)) next = null;
  }
  const tags = await mapLimit(names, TAG_CONCURRENCY, (name) => listTags(session, name));
  const images = names.flatMap((name, i): RegistryImage[] => {
    const list = tags[i];
    return list ? [{ name, tags: list, description: null, isOfficial: null, isTrusted: null, starCount: null }] : [];
  });
  return { ok: true, images };
}

/** Null when it is gone or not ours to pull: it is then left out. */
export async function listTags(session: RegistrySession, name: string): Promise<string[] | null> {
  const path = `/v2/${name.split('/').map(encodeURIComponent).join('/')}/tags/list`;
  const { response, data } = await session.getJson(path, `repository:${name}:pull`);
  if ([401, 403, 404].includes(response.status)) return null;
  if (response.status !== 200) throw session.failure(response);
  const tags = (data as { tags?: unknown } | null)?.tags;
  return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
}

/** RFC 8288 `Link: <…>; rel="next"`, relative to the answering URL. */
function nextPage(header: string | string[] | undefined, base: URL): URL | null {
  for (const value of Array.isArray(header) ? header : header ? [header] : []) {
    for (const link of value.split(/,(?=\s*<)/)) {
      const match = /^\s*<([^>]*)>(.*)$/.exec(link);
      const rel = match && /;\s*rel\s*=\s*"?([^";]*)"?/i.exec(match[2]);
      if (match && rel?.[1].toLowerCase().split(/\s+/).includes('next')) return new URL(match[1], base);
    }
  }
  return null;
}
