import type { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestError, DomainError } from '../errors';
import type { Logger } from '../logger';
import { imageReference, searchRegistry } from './registry-client';
import type { RegistryImage } from './registry-image';
import type { Registry } from './registry.entity';
import type { RegistryService } from './registry.service';
import type { RegistryOutages } from './registry-outages';
import { templateViews } from './template-read';
import type { TemplateView } from './template-shape';
import { searchWords, type SearchWord } from './search-query';
import type { OutboundPolicy } from './outbound-policy';

export const DEFAULT_SEARCH_LIMIT = 100;
export const MAX_SEARCH_LIMIT = 1000;
/** pg_trgm word similarity a misspelt word needs to a word of a name or keywords (0-1). */
export const TYPO_SIMILARITY = 0.5;

export interface SearchHit {
  template: TemplateView | null;
  registry: Registry | null;
  image: RegistryImage | null;
}

export const SEARCH_SOURCES = ['templates', 'registries'] as const;
export type SearchSource = (typeof SEARCH_SOURCES)[number];

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
    private readonly outages: RegistryOutages,
    private readonly outbound?: OutboundPolicy,
  ) {}

  /** A registry that fails adds an error, never fails the search; a templates-only search asks no registry. */
  async search(query: string, limit = DEFAULT_SEARCH_LIMIT, sources: readonly SearchSource[] = SEARCH_SOURCES): Promise<SearchResult> {
    const terms = searchTerms(query);
    if (terms.length === 0) throw new BadRequestError('q must contain a search term', ['q']);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
      throw new BadRequestError(`limit must be between 1 and ${MAX_SEARCH_LIMIT}`, ['limit']);
    }
    if (sources.length === 0) throw new BadRequestError('sources must name at least one source', ['sources']);
    const [templates, remote] = await Promise.all([
      sources.includes('templates') ? this.searchTemplates(query, limit) : [],
      sources.includes('registries') ? this.searchRegistries(terms, limit) : { hits: [], errors: [] },
    ]);
    return {
      query,
      hits: [...templates.map((template) => ({ template, registry: null, image: null })), ...remote.hits],
      errors: remote.errors,
    };
  }

  /** Ranked template ids: full text first; trigram similarity only when full text finds nothing. */
  async rankedTemplateIds(query: string, limit = DEFAULT_SEARCH_LIMIT): Promise<number[]> {
    const words = searchWords(query);
    if (words.length === 0) return [];
    const ids = await this.fullText(words, limit);
    return ids.length > 0 ? ids : this.similar(words, limit);
  }

  private async searchTemplates(query: string, limit: number): Promise<TemplateView[]> {
    const ids = await this.rankedTemplateIds(query, limit);
    // Views straight from rows: hydrating every hit as an entity would dominate a broad query.
    const views = new Map((await templateViews(this.em, ids)).map((view) => [view.id, view]));
    return ids.map((id) => views.get(id)).filter((view) => view !== undefined);
  }

  // More words matched first, then summed ts_rank (name and keywords A, description B, images C, documentation D).
  private async fullText(words: SearchWord[], limit: number): Promise<number[]> {
    const rows: { id: number }[] = await this.em.getConnection().execute(fullTextStatement(words, limit));
    return rows.map((row) => row.id);
  }

  // Typo fallback on names and keywords, served by the trigram indexes.
  private async similar(words: SearchWord[], limit: number): Promise<number[]> {
    const terms = words.map((w) => w.word).filter((w) => w.length >= 3);
    if (terms.length === 0) return [];
    const any = terms.map(() => '(? <% name or ? <% keywords)').join(' or ');
    const score = terms.map(() => "greatest(word_similarity(?, name), word_similarity(?, coalesce(keywords, '')))").join(' + ');
    return this.em.transactional(async (em) => {
      // Local to this transaction: the operator <% compares against this threshold.
      await em
        .getConnection()
        .execute(
          `select set_config('pg_trgm.word_similarity_threshold', '${TYPO_SIMILARITY}', true)`,
          [],
          'all',
          em.getTransactionContext(),
        );
      const rows: { id: number }[] = await em
        .getConnection()
        .execute(
          `select id from templates where ${any} order by ${score} desc, id limit ${limit}`,
          [...terms.flatMap((t) => [t, t]), ...terms.flatMap((t) => [t, t])],
          'all',
          em.getTransactionContext(),
        );
      return rows.map((row) => row.id);
    });
  }

  private async searchRegistries(terms: string[], limit: number) {
    // Settled in the registries' order, so hits and errors keep it whichever answers first.
    const outcomes = await Promise.all(
      (await this.registries.listEnabled()).map((registry) => this.searchRegistry(registry, terms, limit)),
    );
    return { hits: outcomes.flatMap((o) => o.hits), errors: outcomes.flatMap((o) => o.errors) };
  }

  private async searchRegistry(
    registry: Registry,
    terms: string[],
    limit: number,
  ): Promise<{ hits: SearchHit[]; errors: RegistrySearchError[] }> {
    const failed = (message: string) => ({ hits: [], errors: [{ registryId: registry.id, registryName: registry.name, message }] });
    const admission = this.outages.admit(registry.id);
    if (!admission.ask) {
      return failed(`Registry "${registry.name}": did not answer lately; asked again after ${new Date(admission.until).toISOString()}`);
    }
    try {
      const images = await searchRegistry(
        { id: registry.id, name: registry.name, endpointUrl: registry.endpointUrl, credentials: this.credentials(registry) },
        terms,
        { timeoutMs: this.registryTimeoutMs, limit, policy: this.outbound },
      );
      this.outages.forget(registry.id);
      return { hits: images.map((image) => ({ template: null, registry, image })), errors: [] };
    } catch (error) {
      this.outages.failed(registry.id, error);
      const message = error instanceof DomainError ? error.message : 'registry search failed';
      if (!(error instanceof DomainError)) this.log.error({ err: error }, 'registry search failed');
      this.log.warn({ registry: registry.name }, `registry search failed: ${message}`);
      return failed(message);
    }
  }

  private credentials(registry: Registry) {
    const { username, password, token } = this.registries.credentials(registry);
    return { username: username ?? undefined, password: password ?? undefined, token: token ?? undefined };
  }
}

// Ranking reads every candidate's search vector, so a broad query ranks bounded windows (all words, name or
// keywords, anywhere); below RANK_WINDOW matches each window holds every match and the ranking is exact.
export const RANK_WINDOW = 1000;

/** Exported for the bench, which times the statement on its own. */
export function fullTextStatement(words: SearchWord[], limit: number): string {
  // Literals, not parameters: the planner folds them into constants, so the OR of them is an
  // index condition. searchWords leaves only letters, digits, `|`, `:*` and spaces in them.
  const q = (w: SearchWord) => `to_tsquery('english'::regconfig, '${w.tsquery.replace(/'/g, "''")}')`;
  const matched = words.map((w) => `(search_vector @@ ${q(w)})::int`).join(' + ');
  const rank = words.map((w) => `ts_rank(search_vector, ${q(w)})`).join(' + ');
  const any = words.map(q).join(' || ');
  const windows = [
    ...(words.length > 1 ? [`search_vector @@ (${words.map(q).join(' && ')})`] : []),
    `search_head @@ (${any})`,
    `search_vector @@ (${any})`,
  ].map((where) => `(select id from templates where ${where} limit ${RANK_WINDOW})`);
  return `select id from (
      select id, ${matched} as matched, ${rank} as rank from templates where id in (${windows.join(' union ')})
    ) hits order by matched desc, rank desc, id limit ${limit}`;
}

export function searchTerms(query: string): string[] {
  return [
    ...new Set(
      query
        .split(/[\s,]+/)
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

export function hitImageSource(registry: Registry, image: RegistryImage): string {
  const tag = image.tags.includes('latest') ? 'latest' : image.tags[0];
  return imageReference({ endpointUrl: registry.endpointUrl }, image.name, tag);
}
