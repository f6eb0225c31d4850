import type { LocalImage as LocalImageShape } from '../src/apps/local-image.service';
import { builder } from './builder';

const LocalImage = builder.objectRef<LocalImageShape>('LocalImage').implement({
  description: 'A tagged image on the engine apps run on',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'The image id, 64 hex digits' }),
    tags: t.exposeStringList('tags'),
    virtualSize: t.float({ description: 'Bytes', resolve: (i) => i.virtualSize }),
  }),
});

const LocalImageIdInput = builder.inputType('LocalImageIdInput', { fields: (t) => ({ id: t.string({ required: true }) }) });

builder.queryFields((t) => ({
  localImages: t.field({
    type: [LocalImage],
    nullable: true,
    authScopes: { read: true },
    description: 'null (with an UPSTREAM_FAILED error) when the engine cannot be reached: the rest of a query still answers',
    resolve: (_root, _args, ctx) => ctx.services.localImages.list(),
  }),
  localImage: t.field({
    type: LocalImage,
    authScopes: { read: true },
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.localImages.get(id),
  }),
}));

builder.mutationFields((t) => ({
  deleteLocalImage: t.field({
    type: LocalImage,
    errors: {},
    authScopes: { write: true },
    description: 'Removes the image from the engine; refused (409) while a container uses it',
    args: { input: t.arg({ type: LocalImageIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.localImages.delete(input.id),
  }),
}));
