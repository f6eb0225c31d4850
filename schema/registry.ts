import type { Registry as RegistryRow } from '../src/catalog/registry.entity';
import { builder } from './builder';
import { keysetConnection } from './connection';
import { databaseId, orNull } from './global-id';
import { countedList } from '../src/graphql/cost';

export const Registry = builder
  .nodeRef<RegistryRow, number>('Registry', {
    id: { resolve: (r) => r.id, parse: databaseId },
    loadOne: (id, ctx) => orNull(ctx.services.registries.get(id)),
  })
  .implement({
    description: 'A container image registry, searched alongside the templates when enabled. Credentials are write-only.',
    fields: (t) => ({
      databaseId: t.exposeInt('id'),
      name: t.exposeString('name'),
      endpointUrl: t.exposeString('endpointUrl'),
      enabled: t.exposeBoolean('enabled'),
      hasCredentials: t.boolean({ resolve: (r) => Boolean(r.username || r.sealedSecret) }),
    }),
  });

const CreateRegistryInput = builder.inputType('CreateRegistryInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    endpointUrl: t.string({ required: true }),
    enabled: t.boolean(),
    username: t.string(),
    password: t.string(),
    token: t.string({ description: 'A bearer or identity token, instead of username and password' }),
  }),
});

const UpdateRegistryInput = builder.inputType('UpdateRegistryInput', {
  fields: (t) => ({
    id: t.int({ required: true }),
    name: t.string(),
    endpointUrl: t.string(),
    enabled: t.boolean(),
    username: t.string(),
    password: t.string(),
    token: t.string({ description: 'A bearer or identity token, instead of username and password' }),
  }),
});

const DeleteRegistryInput = builder.inputType('DeleteRegistryInput', { fields: (t) => ({ id: t.int({ required: true }) }) });

builder.queryFields((t) => ({
  registries: t.field({
    type: [Registry],
    authScopes: { read: true },
    ...countedList((s) => s.registries.count()),
    resolve: (_root, _args, ctx) => ctx.services.registries.list(),
  }),
  registriesConnection: t.connection(
    {
      type: Registry,
      authScopes: { read: true },
      description: 'The registries, a page at a time, by id (`registries` lists them all)',
      resolve: (_root, args, ctx) =>
        keysetConnection(
          args,
          (w) => ctx.services.registries.page(w),
          () => ctx.services.registries.count(),
        ),
    },
    { name: 'RegistryConnection' },
    { name: 'RegistryEdge' },
  ),
  registry: t.field({
    type: Registry,
    nullable: true,
    description: 'The registry with this databaseId; null (with a NOT_FOUND error) when there is none',
    authScopes: { read: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.registries.get(id),
  }),
}));

builder.mutationFields((t) => ({
  createRegistry: t.field({
    type: Registry,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: CreateRegistryInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.registries.create(input),
  }),
  updateRegistry: t.field({
    type: Registry,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: UpdateRegistryInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.registries.update(input.id, input),
  }),
  deleteRegistry: t.field({
    type: Registry,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: DeleteRegistryInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.registries.delete(input.id),
  }),
}));
