import type { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestError, DomainError } from '../errors';
import type { Logger } from '../logger';
import { imageReference, searchRegistry, type RegistryImage } from './registry-client';
import type { Registry } from './registry.entity';
import type { RegistryService } from './registry.service';
import { templateViews } from './template-read';
import type { TemplateView } from './template-view';
import type { OutboundPolicy } from './outbound-policy';

export const DEFAULT_SEARCH_LIMIT = 100;
export const MAX_SEARCH_LIMIT = 1000;

/** One search result: a stored template, or a single-image template made from a registry image. */
export interface SearchHit {
  template: TemplateView | null;
  registry: Registry | null;
  image: RegistryImage | null;
}

export interface RegistrySearchError {
  registryId: number;
  registryName: string;
  message: string;
}

export interface SearchResult {
  query: string;
  hits: SearchHit[];
  errors: RegistrySearchError[];
}

export class SearchService {
  constructor(
    private readonly em: EntityManager,
    private readonly registries: RegistryService,
    private readonly registryTimeoutMs: number,
    private readonly log: Logger,
    private readonly outbound?: OutboundPolicy,
  ) {}

  /**
   * Templates whose name or keywords contain any term (case-insensitive), then one hit per
   * matching image of each enabled registry. A registry that fails adds an error, never fails
   * the search.
   */
  async search(query: string, limit = DEFAULT_SEARCH_LIMIT): Promise<SearchResult> {
    const terms = searchTerms(query);
    if (terms.length === 0) throw new BadRequestError('q must contain a search term', ['q']);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
      throw new BadRequestError(`limit must be between 1 and ${MAX_SEARCH_LIMIT}`, ['limit']);
    }
    const [templates, remote] = await Promise.all([this.searchTemplates(terms, limit), this.searchRegistries(terms, limit)]);
    return {
      query,
      hits: [...templates.map((template) => ({ template, registry: null, image: null })), ...remote.hits],
      errors: remote.errors,
    };
  }

  private async searchTemplates(terms: string[], limit: number): Promise<TemplateView[]> {
    // One ILIKE pair per term, ORed: each is served by the trigram indexes (bitmap OR).
    const patterns = terms.map((term) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const where = patterns.map(() => `name ilike ? or keywords ilike ?`).join(' or ');
    const rows: { id: number }[] = await this.em
      .getConnection()
      .execute(`select id from templates where ${where} order by id limit ${limit}`, patterns.flatMap((p) => [p, p]));
    // Views straight from rows: hydrating 100 hits as entities was most of a common term's p95.
    return templateViews(this.em, rows.map((r) => r.id));
  }

  private async searchRegistries(terms: string[], limit: number) {
    const registries = await this.registries.listEnabled();
    const settled = await Promise.allSettled(
      registries.map((registry) =>
        searchRegistry(
          { id: registry.id, name: registry.name, endpointUrl: registry.endpointUrl, credentials: this.credentials(registry) },
          terms,
          { timeoutMs: this.registryTimeoutMs, limit, policy: this.outbound },
        ),
      ),
    );
    const hits: SearchHit[] = [];
    const errors: RegistrySearchError[] = [];
    settled.forEach((outcome, i) => {
      const registry = registries[i];
      if (outcome.status === 'fulfilled') {
        for (const image of outcome.value) hits.push({ template: null, registry, image });
      } else {
        const message = outcome.reason instanceof DomainError ? outcome.reason.message : 'registry search failed';
        if (!(outcome.reason instanceof DomainError)) this.log.error({ err: outcome.reason }, 'registry search failed');
        this.log.warn({ registry: registry.name }, `registry search failed: ${message}`);
        errors.push({ registryId: registry.id, registryName: registry.name, message });
      }
    });
    return { hits, errors };
  }

  private credentials(registry: Registry) {
    const { username, password, token } = this.registries.credentials(registry);
    return { username: username ?? undefined, password: password ?? undefined, token: token ?? undefined };
  }
}

/** Commas and white space separate terms; duplicates and empties go. */
export function searchTerms(query: string): string[] {
  return [...new Set(query.split(/[\s,]+/).map((t) => t.trim().toLowerCase()).filter(Boolean))];
}

/** The image reference a registry hit runs as: prefix + name + first tag. */
export function hitImageSource(registry: Registry, image: RegistryImage): string {
  const tag = image.tags.includes('latest') ? 'latest' : image.tags[0];
  return imageReference({ endpointUrl: registry.endpointUrl }, image.name, tag);
}
