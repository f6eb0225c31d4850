import type { PinnedImage } from '../src/history/revision-definition';
import { definitionYaml } from '../src/history/revision-definition';
import type { FieldChange, ImageChange, RevisionDiff as DiffShape } from '../src/history/revision-diff';
import type { Revision as RevisionRow } from '../src/history/revision.entity';
import { App } from './app';
import { Deployment } from './deployment';
import { builder } from './builder';
import { keysetConnection } from './connection';

const RevisionAuthor = builder.objectRef<{ kind: string; name: string }>('RevisionAuthor').implement({
  description: 'Who made a revision',
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'token, admin-token, legacy-ui, webhook or system' }),
    name: t.exposeString('name', { description: "The token's name, legacy-ui, or platform" }),
  }),
});

const RevisionImage = builder.objectRef<PinnedImage>('RevisionImage').implement({
  description: 'An image of a revision as it was resolved when it was deployed',
  fields: (t) => ({
    name: t.exposeString('name', { description: "The service's (image's) name in the definition" }),
    source: t.exposeString('source', { description: 'The reference as written, usually a tag' }),
    digest: t.string({
      nullable: true,
      description: 'The manifest digest (sha256:…), or the image id of an image no registry serves; null when it could not be resolved',
      resolve: (i) => i.digest,
    }),
    reference: t.string({
      nullable: true,
      description: 'What a rollback runs: repository@digest, or the image id',
      resolve: (i) => i.reference,
    }),
    note: t.string({ nullable: true, description: 'Why there is no registry digest', resolve: (i) => i.note ?? null }),
  }),
});

export const Revision = builder.objectRef<RevisionRow>('Revision').implement({
  description: 'One deploy of an app or a deployment: what was deployed, with which image digests, by whom, and how it went',
  fields: (t) => ({
    number: t.exposeInt('number', { description: 'Numbered per app or deployment, from 1' }),
    action: t.exposeString('action', { description: 'create, redeploy, service (an edit of one) or rollback' }),
    rollbackOf: t.int({ nullable: true, description: 'The revision a rollback went back to', resolve: (r) => r.rollbackOf ?? null }),
    outcome: t.exposeString('outcome', { description: 'in progress, succeeded, failed or rolled back' }),
    error: t.string({ nullable: true, description: 'Why it failed', resolve: (r) => r.error ?? null }),
    current: t.exposeBoolean('current', { description: 'What its app or deployment runs now' }),
    author: t.field({ type: RevisionAuthor, resolve: (r) => ({ kind: r.authorKind, name: r.authorName }) }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.createdAt }),
    settledAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.settledAt ?? null }),
    images: t.field({ type: [RevisionImage], resolve: (r) => r.images }),
    deploymentId: t.int({
      nullable: true,
      description:
        "A deployment's revision: the deployment's databaseId on its agent (after a rollback through an agent without descriptor redeploys, the new deployment's)",
      resolve: (r) => r.deploymentId ?? null,
    }),
    definitionYaml: t.string({
      description: 'The rendered definition with each image’s digest, as YAML; secret environment values masked',
      resolve: (r) => definitionYaml(r.definition ?? null, r.images),
    }),
  }),
});

const RevisionFieldChange = builder.objectRef<FieldChange>('RevisionFieldChange').implement({
  description: 'One field of one image, old → new; a secret environment value is never given, only that it changed',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'digest, a file-form key (ports, command, …), environment.NAME or options.KEY' }),
    old: t.field({ type: 'JSON', nullable: true, resolve: (c) => (c.old ?? null) as never }),
    new: t.field({ type: 'JSON', nullable: true, resolve: (c) => (c.new ?? null) as never }),
    secret: t.exposeBoolean('secret'),
  }),
});

const RevisionImageChange = builder.objectRef<ImageChange>('RevisionImageChange').implement({
  fields: (t) => ({
    image: t.exposeString('image'),
    change: t.exposeString('change', { description: 'added, removed or changed' }),
    fields: t.field({ type: [RevisionFieldChange], resolve: (c) => c.fields }),
  }),
});

export const RevisionDiff = builder.objectRef<DiffShape>('RevisionDiff').implement({
  description: 'What changed between two revisions: per image and field, and as a unified diff of the rendered YAML',
  fields: (t) => ({
    from: t.exposeInt('from'),
    to: t.exposeInt('to'),
    images: t.field({ type: [RevisionImageChange], resolve: (d) => d.images }),
    unified: t.exposeString('unified'),
  }),
});

builder.objectFields(App, (t) => ({
  revisions: t.connection(
    {
      type: Revision,
      description: "The app's revisions, newest first",
      resolve: (app, args, ctx) =>
        keysetConnection(
          args,
          (w) => ctx.services.appHistory.page(app.id, w),
          () => ctx.services.appHistory.count(app.id),
        ),
    },
    { name: 'RevisionConnection' },
    { name: 'RevisionEdge' },
  ),
  revision: t.field({
    type: Revision,
    description: 'One revision by its number (404 if never made, 422 if pruned)',
    args: { number: t.arg.int({ required: true }) },
    resolve: (app, { number }, ctx) => ctx.services.appHistory.get(app.id, number),
  }),
  revisionDiff: t.field({
    type: RevisionDiff,
    description: 'What changed from one revision to another',
    args: { from: t.arg.int({ required: true }), to: t.arg.int({ required: true }) },
    resolve: (app, { from, to }, ctx) => ctx.services.appHistory.diff(app.id, from, to),
  }),
}));

const RollbackAppInput = builder.inputType('RollbackAppInput', {
  fields: (t) => ({
    appId: t.int({ required: true }),
    revision: t.int({ required: true, description: 'The number of the revision to run again' }),
    rollbackOnFailure: t.boolean({
      description: 'A new version that does not get healthy is removed and the old one kept (default: ROLLBACK_ON_FAILURE, true)',
    }),
  }),
});

builder.mutationFields((t) => ({
  rollbackApp: t.field({
    type: Revision,
    errors: {},
    authScopes: { write: true },
    description:
      'Runs a revision of the app again, each image by the digest it ran, health-gated: answers with the new revision once it is healthy',
    args: { input: t.arg({ type: RollbackAppInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.appHistory.rollback(input.appId, input.revision, input),
  }),
}));

builder.objectFields(Deployment, (t) => ({
  revisions: t.connection(
    {
      type: Revision,
      description: "The deployment's revisions, newest first (kept by this service, not the agent)",
      resolve: (d, args, ctx) =>
        keysetConnection(
          args,
          (w) => ctx.services.deployments.revisions(d.targetId, d.id, w),
          () => ctx.services.deployments.revisionCount(d.targetId, d.id),
        ),
    },
    { name: 'DeploymentRevisionConnection' },
    { name: 'DeploymentRevisionEdge' },
  ),
  revision: t.field({
    type: Revision,
    description: 'One revision by its number (404 if never made, 422 if pruned)',
    args: { number: t.arg.int({ required: true }) },
    resolve: (d, { number }, ctx) => ctx.services.deployments.revision(d.targetId, d.id, number),
  }),
  revisionDiff: t.field({
    type: RevisionDiff,
    description: 'What changed from one revision to another',
    args: { from: t.arg.int({ required: true }), to: t.arg.int({ required: true }) },
    resolve: (d, { from, to }, ctx) => ctx.services.deployments.revisionDiff(d.targetId, d.id, from, to),
  }),
}));

const RollbackDeploymentInput = builder.inputType('RollbackDeploymentInput', {
  fields: (t) => ({
    targetId: t.int({ required: true }),
    deploymentId: t.int({ required: true }),
    revision: t.int({ required: true, description: 'The number of the revision to run again' }),
  }),
});

builder.mutationFields((t) => ({
  rollbackDeployment: t.field({
    type: Revision,
    errors: {},
    authScopes: { deploy: true },
    description:
      "Sends a revision's descriptor, each image pinned to its digest, to the deployment's agent: as a redeploy with that descriptor, or (an agent of the original protocol) as a new deployment that replaces the old once it runs",
    args: { input: t.arg({ type: RollbackDeploymentInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.deployments.rollback(input.targetId, input.deploymentId, input.revision),
  }),
}));
