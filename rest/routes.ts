import { RawBody, type DialectRoute, type RestRoute } from './route-table';

/** Interface A: every path of the spec, as a GraphQL operation (rest/operations/*.graphql). */
export const routes = [
  // catalog
  { method: 'GET', path: '/search', operation: 'Search', status: 200, result: 'search.items' },
  { method: 'GET', path: '/platform', operation: 'GetPlatform', status: 200, result: 'platform.document' },
  { method: 'GET', path: '/user', operation: 'GetUser', status: 200 },
  { method: 'GET', path: '/keywords', operation: 'ListKeywords', status: 200 },
  { method: 'GET', path: '/types', operation: 'ListTypes', status: 200 },
  { method: 'GET', path: '/templates', operation: 'ListTemplates', status: 200, pages: 'templatesConnection' },
  { method: 'GET', path: '/templates/:id', operation: 'GetTemplate', status: 200 },
  { method: 'DELETE', path: '/templates/:id', operation: 'DeleteTemplate', status: 204 },
  { method: 'GET', path: '/template_repos', operation: 'ListTemplateRepos', status: 200 },
  { method: 'POST', path: '/template_repos', operation: 'CreateTemplateRepo', status: 200, location: '/template_repos/:id' },
  { method: 'POST', path: '/template_repos/:id', operation: 'ReloadTemplateRepo', status: 200 },
  { method: 'DELETE', path: '/template_repos/:id', operation: 'DeleteTemplateRepo', status: 204 },
  { method: 'GET', path: '/registries', operation: 'ListRegistries', status: 200 },
  { method: 'POST', path: '/registries', operation: 'CreateRegistry', status: 201, location: '/registries/:id' },
  { method: 'GET', path: '/registries/:id', operation: 'GetRegistry', status: 200 },
  { method: 'PATCH', path: '/registries/:id', operation: 'UpdateRegistry', status: 204 },
  { method: 'DELETE', path: '/registries/:id', operation: 'DeleteRegistry', status: 204 },
  // apps and services
  { method: 'GET', path: '/apps', operation: 'ListApps', status: 200, pages: 'appsConnection' },
  { method: 'POST', path: '/apps', operation: 'CreateApp', status: 200, location: '/apps/:id' },
  { method: 'GET', path: '/apps/:id', operation: 'GetApp', status: 200 },
  { method: 'PUT', path: '/apps/:id', operation: 'RebuildApp', status: 204 },
  { method: 'DELETE', path: '/apps/:id', operation: 'DeleteApp', status: 204 },
  { method: 'GET', path: '/apps/:id/journal', operation: 'GetAppJournal', status: 200 },
  { method: 'GET', path: '/apps/:app_id/services', operation: 'ListServices', status: 200 },
  { method: 'POST', path: '/apps/:app_id/services', operation: 'CreateService', status: 200, location: '/apps/:app_id/services/:id' },
  { method: 'POST', path: '/apps/:app_id/template', operation: 'PreviewAppTemplate', status: 200 },
  { method: 'GET', path: '/apps/:app_id/services/:id', operation: 'GetService', status: 200 },
  { method: 'PUT', path: '/apps/:app_id/services/:id', operation: 'UpdateService', status: 204 },
  { method: 'GET', path: '/apps/:app_id/services/:id/journal', operation: 'GetServiceJournal', status: 200 },
  { method: 'POST', path: '/templates', operation: 'CreateTemplate', status: 201, location: '/templates/:id' },
  { method: 'POST', path: '/templates/:id/save', operation: 'SaveTemplate', status: 204 },
  // deployment targets and deployments (the agent's, proxied)
  { method: 'GET', path: '/deployment_targets', operation: 'ListDeploymentTargets', status: 200 },
  { method: 'POST', path: '/deployment_targets', operation: 'CreateDeploymentTarget', status: 200, location: '/deployment_targets/:id' },
  { method: 'GET', path: '/deployment_targets/:id', operation: 'GetDeploymentTarget', status: 200 },
  { method: 'DELETE', path: '/deployment_targets/:id', operation: 'DeleteDeploymentTarget', status: 204 },
  {
    method: 'GET',
    path: '/deployment_targets/:targetId/deployments',
    operation: 'ListDeployments',
    status: 200,
    result: 'deploymentTarget.deployments',
  },
  {
    method: 'POST',
    path: '/deployment_targets/:targetId/deployments',
    operation: 'CreateDeployment',
    status: 200,
    location: '/deployment_targets/:targetId/deployments/:id',
  },
  { method: 'GET', path: '/deployment_targets/:targetId/deployments/:id', operation: 'GetDeployment', status: 200 },
  { method: 'DELETE', path: '/deployment_targets/:targetId/deployments/:id', operation: 'DeleteDeployment', status: 204 },
  { method: 'POST', path: '/deployment_targets/:targetId/deployments/:id/redeploy', operation: 'RedeployDeployment', status: 200 },
] as const satisfies readonly RestRoute[];

/** Calls the original API served beyond the spec (docs/original-system.md), beside the spec's paths. */
export const extraRoutes = [
  { method: 'GET', path: '/template_repos/:id', operation: 'GetTemplateRepo', status: 200 },
  { method: 'DELETE', path: '/apps/:app_id/services/:id', operation: 'DeleteService', status: 204 },
  { method: 'GET', path: '/apps/:id/compose_yml', operation: 'GetAppCompose', status: 200, result: 'app' },
  { method: 'GET', path: '/apps/:app_id/categories', operation: 'ListCategories', status: 200 },
  { method: 'POST', path: '/apps/:app_id/categories', operation: 'CreateCategory', status: 201, location: '/apps/:app_id/categories/:id' },
  { method: 'GET', path: '/apps/:app_id/categories/:id', operation: 'GetCategory', status: 200 },
  { method: 'PUT', path: '/apps/:app_id/categories/:id', operation: 'UpdateCategory', status: 204 },
  { method: 'DELETE', path: '/apps/:app_id/categories/:id', operation: 'DeleteCategory', status: 204 },
  { method: 'POST', path: '/deployment_targets/:id/metadata/refresh', operation: 'RefreshDeploymentTargetMetadata', status: 200 },
  // Not the original's: replaces a target's token in place (README "Rotating the agent's credentials").
  { method: 'PUT', path: '/deployment_targets/:id', operation: 'UpdateDeploymentTarget', status: 200 },
  { method: 'GET', path: '/repositories/*', operation: 'GetRepository', status: 200, wildcard: 'name' },
  { method: 'PUT', path: '/user', operation: 'UpdateUser', status: 200 },
  // Not the original's: deploy hooks, event subscriptions and the audit log (README "Automation and accountability").
  { method: 'GET', path: '/apps/:app_id/hooks', operation: 'ListDeployHooks', status: 200 },
  { method: 'POST', path: '/apps/:app_id/hooks', operation: 'CreateDeployHook', status: 201, location: '/deploy_hooks/:id' },
  { method: 'PUT', path: '/apps/:app_id/automation', operation: 'SetAppAutomation', status: 200 },
  { method: 'GET', path: '/deployment_targets/:target_id/deployments/:deployment_id/hooks', operation: 'ListDeployHooks', status: 200 },
  { method: 'POST', path: '/deployment_targets/:target_id/deployments/:deployment_id/hooks', operation: 'CreateDeployHook', status: 201 },
  { method: 'GET', path: '/template_repos/:template_repo_id/hooks', operation: 'ListDeployHooks', status: 200 },
  { method: 'POST', path: '/template_repos/:template_repo_id/hooks', operation: 'CreateDeployHook', status: 201 },
  { method: 'GET', path: '/deploy_hooks/:id', operation: 'GetDeployHook', status: 200 },
  { method: 'DELETE', path: '/deploy_hooks/:id', operation: 'RevokeDeployHook', status: 204 },
  { method: 'POST', path: '/deploy_hooks/:id/secret', operation: 'RotateDeployHookSecret', status: 200 },
  { method: 'GET', path: '/event_subscriptions', operation: 'ListEventSubscriptions', status: 200 },
  { method: 'POST', path: '/event_subscriptions', operation: 'CreateEventSubscription', status: 201, location: '/event_subscriptions/:id' },
  { method: 'GET', path: '/event_subscriptions/:id', operation: 'GetEventSubscription', status: 200 },
  { method: 'PATCH', path: '/event_subscriptions/:id', operation: 'UpdateEventSubscription', status: 200 },
  { method: 'DELETE', path: '/event_subscriptions/:id', operation: 'DeleteEventSubscription', status: 204 },
  { method: 'POST', path: '/event_subscriptions/:id/secret', operation: 'RotateEventSubscriptionSecret', status: 200 },
  {
    method: 'GET',
    path: '/event_subscriptions/:id/deliveries',
    operation: 'ListEventDeliveries',
    status: 200,
    result: 'eventSubscription.deliveries',
  },
  { method: 'POST', path: '/event_deliveries/:id/resend', operation: 'ResendEventDelivery', status: 200 },
  { method: 'GET', path: '/audit_events', operation: 'ListAuditEvents', status: 200 },
  // Not the original's: revisions and rollback (README "History and rollback").
  { method: 'GET', path: '/apps/:app_id/revisions', operation: 'ListAppRevisions', status: 200, result: 'app.revisions.nodes' },
  { method: 'POST', path: '/apps/:app_id/rollback', operation: 'RollbackApp', status: 200 },
  {
    method: 'GET',
    path: '/deployment_targets/:target_id/deployments/:deployment_id/revisions',
    operation: 'ListDeploymentRevisions',
    status: 200,
    result: 'deployment.revisions.nodes',
  },
  {
    method: 'POST',
    path: '/deployment_targets/:target_id/deployments/:deployment_id/rollback',
    operation: 'RollbackDeployment',
    status: 200,
  },
  { method: 'GET', path: '/audit_events/export', operation: 'ExportAuditEvents', status: 200, response: [jsonLines] },
] as const satisfies readonly DialectRoute[];

/** The audit export's text, sent as JSON lines rather than as a JSON string. */
function jsonLines(body: unknown): RawBody {
  return new RawBody(typeof body === 'string' ? body : '', 'application/x-ndjson; charset=utf-8');
}
