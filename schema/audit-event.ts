import type { AuditPage, AuditRow } from '../src/audit/audit-log';
import { builder } from './builder';
import { keysetConnection, PAGE } from './connection';

const AuditEvent = builder.objectRef<AuditRow>('AuditEvent').implement({
  description:
    'One change: who, what, when, from where, and how it ended (reads are not recorded, but sign-in, sign-out and a token’s first use are)',
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    at: t.field({ type: 'DateTime', resolve: (e) => e.at }),
    actorKind: t.exposeString('actorKind', { description: 'token, admin-token, legacy-ui, webhook or system' }),
    actorId: t.string({ nullable: true, description: "The token's or the hook's databaseId", resolve: (e) => e.actorId }),
    actorName: t.string({ nullable: true, description: "The token's or the hook's name", resolve: (e) => e.actorName }),
    door: t.exposeString('door', { description: 'rest, graphql, graphql-ws, console, legacy-ui, webhook or system' }),
    operation: t.exposeString('operation'),
    objectType: t.string({ nullable: true, resolve: (e) => e.objectType }),
    objectId: t.string({ nullable: true, resolve: (e) => e.objectId }),
    input: t.field({ type: 'JSON', description: 'A summary of the input, secrets masked', resolve: (e) => e.input }),
    outcome: t.exposeString('outcome', { description: 'ok, or the error code' }),
    clientAddress: t.string({ nullable: true, resolve: (e) => e.clientAddress }),
    userAgent: t.string({ nullable: true, resolve: (e) => e.userAgent }),
    hash: t.exposeString('hash', { description: 'SHA-256 over the record and the hash of the one before (npm run audit:verify)' }),
    prevHash: t.exposeString('prevHash'),
  }),
});

const AuditEventPage = builder.objectRef<AuditPage>('AuditEventPage').implement({
  description: 'Records newest first; pass `next` back as `before` for the page after',
  fields: (t) => ({
    items: t.field({ type: [AuditEvent], resolve: (p) => p.items }),
    next: t.int({ nullable: true, resolve: (p) => p.next }),
    totalCount: t.int({ resolve: (p) => p.total() }),
  }),
});

const EXPORT_MAX = 50_000;

export const AuditFilterInput = builder.inputType('AuditFilterInput', {
  fields: (t) => ({
    actor: t.string({ description: "A token's or hook's databaseId or name, legacy-ui, or an actor kind" }),
    objectType: t.string(),
    objectId: t.string(),
    operation: t.string(),
    since: t.field({ type: 'DateTime' }),
    until: t.field({ type: 'DateTime' }),
  }),
});

builder.queryFields((t) => ({
  auditEvents: t.field({
    type: AuditEventPage,
    authScopes: { admin: true },
    description: `The audit log, newest first, filtered (at most ${PAGE.maxSize} a page)`,
    args: {
      filter: t.arg({ type: AuditFilterInput }),
      first: t.arg.int({ defaultValue: PAGE.defaultSize }),
      before: t.arg.int({ description: 'Records older than this databaseId (the previous page’s next)' }),
    },
    resolve: (_root, { filter, first, before }, ctx) =>
      ctx.services.audit.page(filter ?? {}, first ?? PAGE.defaultSize, before ?? undefined, PAGE.maxSize),
  }),
  auditEventsConnection: t.connection(
    {
      type: AuditEvent,
      authScopes: { admin: true },
      description: 'The audit log as a Relay connection by id, oldest first (`last: 20` for the newest), filtered',
      args: { filter: t.arg({ type: AuditFilterInput }) },
      resolve: (_root, { filter, ...args }, ctx) =>
        keysetConnection(
          args,
          (w) => ctx.services.audit.window(filter ?? {}, w),
          () => ctx.services.audit.count(filter ?? {}),
        ),
    },
    { name: 'AuditEventConnection' },
    { name: 'AuditEventEdge' },
  ),
  auditExport: t.string({
    authScopes: { admin: true },
    description: `The matching records as JSON lines, oldest first (at most ${EXPORT_MAX} records: narrow by time for more)`,
    args: { filter: t.arg({ type: AuditFilterInput }) },
    resolve: (_root, { filter }, ctx) => ctx.services.audit.exportLines(filter ?? {}, EXPORT_MAX),
  }),
}));
