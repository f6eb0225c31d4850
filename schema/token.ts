import { SCOPES, type ApiToken as ApiTokenRow } from '../src/auth/api-token.entity';
import type { IssuedToken } from '../src/auth/token.service';
import { builder } from './builder';
import { keysetConnection } from './connection';
import { databaseId, orNull } from './global-id';
import { countedList } from '../src/graphql/cost';

export const Scope = builder.enumType('Scope', {
  description: 'read < write < deploy < admin: each scope includes the ones before it',
  values: SCOPES,
});

const ApiToken = builder
  .nodeRef<ApiTokenRow, number>('ApiToken', {
    id: { resolve: (r) => r.id, parse: databaseId },
    loadOne: (id, ctx) => orNull(ctx.services.tokens.get(id)),
  })
  .implement({
    description: 'A bearer token; the secret itself is shown only once, when issued',
    // node(id:) reaches it too: an admin's, like apiTokens.
    authScopes: { admin: true },
    fields: (t) => ({
      databaseId: t.exposeInt('id'),
      name: t.exposeString('name'),
      username: t.exposeString('username'),
      email: t.string({ nullable: true, resolve: (r) => r.email ?? null }),
      scopes: t.field({ type: [Scope], resolve: (r) => r.scopes }),
      createdAt: t.field({ type: 'DateTime', resolve: (r) => r.createdAt }),
      revokedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.revokedAt ?? null }),
    }),
  });

const IssuedApiToken = builder.objectRef<IssuedToken>('IssuedApiToken').implement({
  description: 'The answer to createApiToken: the secret, once, beside the stored token',
  fields: (t) => ({
    databaseId: t.exposeInt('id', { description: "The stored ApiToken's databaseId" }),
    apiToken: t.field({
      type: ApiToken,
      description: 'The stored token (no secret)',
      resolve: (r, _args, ctx) => ctx.services.tokens.get(r.id),
    }),
    name: t.exposeString('name'),
    token: t.exposeString('token', { description: 'Shown once; only its digest is stored' }),
    scopes: t.field({ type: [Scope], resolve: (r) => r.scopes }),
  }),
});

const CreateApiTokenInput = builder.inputType('CreateApiTokenInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    username: t.string(),
    email: t.string(),
    scopes: t.field({ type: [Scope], required: true }),
  }),
});
const RevokeApiTokenInput = builder.inputType('RevokeApiTokenInput', { fields: (t) => ({ id: t.int({ required: true }) }) });

builder.queryFields((t) => ({
  apiTokens: t.field({
    type: [ApiToken],
    authScopes: { admin: true },
    ...countedList((s) => s.tokens.count()),
    resolve: (_root, _args, ctx) => ctx.services.tokens.list(),
  }),
  apiTokensConnection: t.connection(
    {
      type: ApiToken,
      authScopes: { admin: true },
      description: 'The API tokens, a page at a time, by id (`apiTokens` lists them all)',
      resolve: (_root, args, ctx) =>
        keysetConnection(
          args,
          (w) => ctx.services.tokens.page(w),
          () => ctx.services.tokens.count(),
        ),
    },
    { name: 'ApiTokenConnection' },
    { name: 'ApiTokenEdge' },
  ),
}));

builder.mutationFields((t) => ({
  createApiToken: t.field({
    type: IssuedApiToken,
    errors: {},
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateApiTokenInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.tokens.issue(input),
  }),
  revokeApiToken: t.field({
    type: ApiToken,
    errors: {},
    authScopes: { admin: true },
    args: { input: t.arg({ type: RevokeApiTokenInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.tokens.revoke(input.id),
  }),
}));
