import type { RepositoryTags } from '../src/catalog/repository.service';
import { builder } from './builder';

const Repository = builder.objectRef<RepositoryTags>('Repository').implement({
  description: 'An image repository and its tags',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The repository name' }),
    tags: t.exposeStringList('tags'),
  }),
});

builder.queryFields((t) => ({
  repository: t.field({
    type: Repository,
    authScopes: { read: true },
    description: "A repository's tags: the local engine's images (local), else those of a registry",
    args: { name: t.arg.string({ required: true }), local: t.arg.boolean(), registryId: t.arg.int() },
    resolve: (_root, { name, ...where }, ctx) => ctx.services.repositories.tags(name, where),
  }),
}));
