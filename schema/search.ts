import { hitImageSource, type RegistrySearchError, type SearchHit } from '../src/catalog/search.service';
import { singleImageView, type TemplateView } from '../src/catalog/template-shape';
import { bareImage } from '../src/parts/image';
import { builder } from './builder';
import { isTemplateView, TemplateFields } from './template';
import { DEFAULT_SEARCH_LIMIT } from '../src/catalog/search.service';
import { byLimit } from '../src/graphql/cost';

/** A registry image offered as a single-image template: no id, no dates. */
const RegistryImageTemplate = builder.objectRef<TemplateView>('RegistryImageTemplate').implement({
  interfaces: [TemplateFields],
  isTypeOf: (v) => isTemplateView(v) && v.id === null,
  fields: (t) => ({
    registryId: t.int({ resolve: (v) => v.registryId as number }),
    registryName: t.string({ resolve: (v) => v.registryName as string }),
    tags: t.stringList({ resolve: (v) => v.tags ?? [] }),
    starCount: t.int({ nullable: true, resolve: (v) => v.starCount ?? null }),
    isOfficial: t.boolean({ nullable: true, resolve: (v) => v.isOfficial ?? null }),
    isTrusted: t.boolean({
      nullable: true,
      description: 'An automated build (Docker Hub); null where the registry does not say',
      resolve: (v) => v.isTrusted ?? null,
    }),
  }),
});

const SearchError = builder.objectRef<RegistrySearchError>('RegistrySearchError').implement({
  description: 'A registry that could not be searched; the rest of the search still answered',
  fields: (t) => ({
    registryId: t.exposeInt('registryId'),
    registryName: t.exposeString('registryName'),
    message: t.exposeString('message'),
  }),
});

const SearchSource = builder.enumType('SearchSource', {
  description: 'Where a search looks',
  values: {
    TEMPLATES: { value: 'templates', description: 'The stored templates' },
    REGISTRIES: { value: 'registries', description: 'The images of every enabled registry' },
  } as const,
});

const SearchResult = builder.objectRef<{ query: string; items: TemplateView[]; errors: RegistrySearchError[] }>('SearchResult').implement({
  fields: (t) => ({
    query: t.exposeString('query'),
    // A search answers up to `limit` templates and `limit` registry images.
    items: t.field({ type: [TemplateFields], complexity: { field: 1, multiplier: 2 }, resolve: (r) => r.items }),
    errors: t.field({ type: [SearchError], resolve: (r) => r.errors }),
  }),
});

builder.queryFields((t) => ({
  search: t.field({
    type: SearchResult,
    authScopes: { read: true },
    description:
      'Templates ranked by full-text relevance (name and keywords, description, images, documentation; all words first; typo-tolerant), then matching images of every enabled registry',
    args: {
      q: t.arg.string({ required: true }),
      limit: t.arg.int(),
      sources: t.arg({ type: [SearchSource], description: 'Where to look; every source when not given' }),
    },
    complexity: byLimit(DEFAULT_SEARCH_LIMIT),
    resolve: async (_root, { q, limit, sources }, ctx) => {
      const result = await ctx.services.search.search(q, limit ?? undefined, sources ?? undefined);
      return { query: result.query, items: result.hits.map(hitView), errors: result.errors };
    },
  }),
}));

void RegistryImageTemplate;

function hitView(hit: SearchHit): TemplateView {
  if (hit.template) return hit.template;
  const registry = hit.registry!;
  const image = hit.image!;
  const only = bareImage(image.name.split('/').pop() ?? image.name, hitImageSource(registry, image), image.description);
  return {
    ...singleImageView(image.name, image.description, registry.name, only),
    registryId: registry.id,
    registryName: registry.name,
    tags: image.tags,
    starCount: image.starCount,
    isOfficial: image.isOfficial,
    isTrusted: image.isTrusted,
  };
}
