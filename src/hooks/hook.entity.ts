import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { App } from '../apps/app.entity';
import { TemplateRepo } from '../catalog/template-repo.entity';
import { Template } from '../catalog/template.entity';
import { timestamp } from '../db/timestamps';
import { DeploymentTarget } from '../targets/deployment-target.entity';

export const HOOK_KINDS = ['generic', 'github', 'gitlab', 'registry'] as const;
export type HookKind = (typeof HOOK_KINDS)[number];

/** Called at `POST /hooks/<publicId>`. The secret is sealed, not digested: the signatures need it in the clear. */
export const DeployHook = defineEntity({
  name: 'DeployHook',
  tableName: 'deploy_hooks',
  properties: {
    id: p.integer().primary(),
    publicId: p.text().unique(),
    name: p.text(),
    kind: p.text().$type<HookKind>(),
    app: () => p.manyToOne(App).nullable().deleteRule('cascade').updateRule('no action'),
    target: () => p.manyToOne(DeploymentTarget).nullable().deleteRule('cascade').updateRule('no action'),
    deploymentId: p.integer().nullable(),
    templateRepo: () => p.manyToOne(TemplateRepo).nullable().deleteRule('cascade').updateRule('no action'),
    sealedSecret: p.text(),
    allowTag: p.boolean().default(false),
    createdAt: timestamp(),
    rotatedAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
  },
});
export type DeployHook = InferEntity<typeof DeployHook>;

/** A retry with the same delivery id is answered, not run again. */
export const DeployHookCall = defineEntity({
  name: 'DeployHookCall',
  tableName: 'deploy_hook_calls',
  uniques: [{ properties: ['hook', 'deliveryId'] }],
  properties: {
    id: p.integer().primary(),
    hook: () => p.manyToOne(DeployHook).deleteRule('cascade').updateRule('no action'),
    deliveryId: p.text().nullable(),
    event: p.text().nullable(),
    /** queued, done, failed or ignored. */
    status: p.text(),
    message: p.text().nullable(),
    receivedAt: timestamp(),
    finishedAt: p.datetime().nullable(),
  },
});
export type DeployHookCall = InferEntity<typeof DeployHookCall>;

/** What an app was made from, and whether a push that changes that template's file redeploys it. */
export const AppAutomation = defineEntity({
  name: 'AppAutomation',
  tableName: 'app_automation',
  properties: {
    app: () => p.oneToOne(App).primary().deleteRule('cascade').updateRule('no action'),
    template: () => p.manyToOne(Template).nullable().deleteRule('set null').updateRule('no action'),
    redeployOnTemplateChange: p.boolean().default(false),
  },
});
export type AppAutomation = InferEntity<typeof AppAutomation>;
