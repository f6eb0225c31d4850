import type { DialectRoute, DialectRow } from './dialect';
import {
  appServicesShape,
  composeText,
  deployResource,
  emptyObject,
  ignoreBody,
  journalEntries,
  queryOverBody,
  searchByType,
  serviceIdNames,
  serviceShape,
} from './ui-transforms';

/** Every row of this table reads form-typed values (rest/route.ts `coerce`). */
const ui = (row: Omit<DialectRoute, 'coerce'>): DialectRoute => ({ ...row, coerce: 'form' });

const JOB_RUNNER = "jobs run on the original's job runner (Dray), which this product does not have; deploy templates to a target instead";

/**
 * The original web UI's calls (docs/original-system.md "Original web UI dialect", row ids in the
 * comments), served on the legacy listener (LEGACY_UI_PORT). Each is a GraphQL operation, most of
 * them interface A's own; where the UI's paths, placements or shapes differ, the row says how.
 */
export const legacyUiRoutes: readonly DialectRow[] = [
  // apps (A1–A11)
  ui({ method: 'GET', path: '/apps', operation: 'UiListApps', status: 200, response: [appServicesShape] }),
  ui({ method: 'POST', path: '/apps', operation: 'CreateApp', status: 201, location: '/apps/:id' }),
  ui({ method: 'GET', path: '/apps/:id', operation: 'GetApp', status: 200 }),
  ui({ method: 'PUT', path: '/apps/:id', operation: 'UpdateApp', status: 204 }),
  ui({ method: 'DELETE', path: '/apps/:id', operation: 'DeleteApp', status: 204 }),
  ui({ method: 'PUT', path: '/apps/:id/rebuild', operation: 'RebuildApp', status: 204, request: [ignoreBody] }),
  ui({ method: 'POST', path: '/apps/:app_id/template', operation: 'PreviewAppTemplate', status: 200, request: [queryOverBody] }),
  ui({
    method: 'GET',
    path: '/apps/:id/journal',
    operation: 'UiGetAppJournal',
    status: 200,
    result: 'appJournal',
    response: [journalEntries],
  }),
  ui({ method: 'GET', path: '/apps/:id/compose_yml', operation: 'GetAppCompose', status: 200, result: 'app' }),
  ui({
    method: 'GET',
    path: '/apps/:id/compose_yml.yaml',
    operation: 'GetAppCompose',
    status: 200,
    result: 'app',
    response: [composeText],
  }),
  {
    method: 'POST',
    path: '/apps/:id/compose_gist',
    unsupported: 'publishing a Compose file as a GitHub gist is not offered: download it from /apps/{id}/compose_yml.yaml',
  },
  // services and categories (A12–A17, C1–C4)
  ui({ method: 'GET', path: '/apps/:app_id/services', operation: 'UiListServices', status: 200, response: [serviceShape] }),
  ui({
    method: 'POST',
    path: '/apps/:app_id/services',
    operation: 'UiCreateService',
    status: 201,
    location: '/apps/:app_id/services/:id',
    response: [serviceShape],
  }),
  ui({ method: 'GET', path: '/apps/:app_id/services/:id', operation: 'UiGetService', status: 200, response: [serviceShape] }),
  ui({ method: 'PUT', path: '/apps/:app_id/services/:id', operation: 'UpdateService', status: 204 }),
  ui({ method: 'DELETE', path: '/apps/:app_id/services/:id', operation: 'DeleteService', status: 204 }),
  ui({
    method: 'GET',
    path: '/apps/:app_id/services/:id/journal',
    operation: 'UiGetServiceJournal',
    status: 200,
    result: 'serviceJournal',
    response: [journalEntries],
  }),
  ui({ method: 'GET', path: '/apps/:app_id/categories', operation: 'ListCategories', status: 200 }),
  ui({
    method: 'POST',
    path: '/apps/:app_id/categories',
    operation: 'CreateCategory',
    status: 201,
    location: '/apps/:app_id/categories/:id',
  }),
  ui({ method: 'GET', path: '/apps/:app_id/categories/:id', operation: 'GetCategory', status: 200 }),
  ui({ method: 'PUT', path: '/apps/:app_id/categories/:id', operation: 'UpdateCategory', status: 204 }),
  ui({ method: 'DELETE', path: '/apps/:app_id/categories/:id', operation: 'DeleteCategory', status: 204 }),
  // templates, sources, registries (T1–T3, R1–R4, G1–G5)
  ui({ method: 'GET', path: '/templates/:id', operation: 'GetTemplate', status: 200 }),
  ui({ method: 'POST', path: '/templates', operation: 'CreateTemplate', status: 201, location: '/templates/:id' }),
  ui({ method: 'POST', path: '/templates/:id/save', operation: 'SaveTemplate', status: 204, request: [queryOverBody] }),
  ui({ method: 'GET', path: '/template_repos', operation: 'ListTemplateRepos', status: 200 }),
  ui({ method: 'POST', path: '/template_repos', operation: 'CreateTemplateRepo', status: 201, location: '/template_repos/:id' }),
  ui({ method: 'DELETE', path: '/template_repos/:id', operation: 'DeleteTemplateRepo', status: 204 }),
  ui({ method: 'POST', path: '/template_repos/:id/reload', operation: 'ReloadTemplateRepo', status: 200, request: [ignoreBody] }),
  ui({ method: 'GET', path: '/registries', operation: 'ListRegistries', status: 200 }),
  ui({ method: 'POST', path: '/registries', operation: 'CreateRegistry', status: 201, location: '/registries/:id' }),
  ui({ method: 'GET', path: '/registries/:id', operation: 'GetRegistry', status: 200 }),
  ui({ method: 'PUT', path: '/registries/:id', operation: 'UpdateRegistry', status: 204 }),
  ui({ method: 'DELETE', path: '/registries/:id', operation: 'DeleteRegistry', status: 204 }),
  // search, user, images (S1–S4, U1–U2, I1–I3)
  ui({ method: 'GET', path: '/search', operation: 'UiSearch', status: 200, result: '', response: [searchByType] }),
  ui({ method: 'GET', path: '/keywords', operation: 'ListKeywords', status: 200 }),
  ui({ method: 'GET', path: '/types', operation: 'ListTypes', status: 200 }),
  ui({ method: 'GET', path: '/repositories/*', operation: 'GetRepository', status: 200, wildcard: 'name' }),
  ui({ method: 'GET', path: '/user', operation: 'UiGetUser', status: 200 }),
  ui({ method: 'PUT', path: '/user', operation: 'UiUpdateUser', status: 200 }),
  ui({ method: 'GET', path: '/local_images', operation: 'UiListLocalImages', status: 200 }),
  ui({ method: 'GET', path: '/local_images/:id', operation: 'UiGetLocalImage', status: 200 }),
  ui({ method: 'DELETE', path: '/local_images/:id', operation: 'UiDeleteLocalImage', status: 204 }),
  // deployment targets and deployments (D1–D10)
  ui({ method: 'GET', path: '/deployment_targets', operation: 'ListDeploymentTargets', status: 200 }),
  ui({
    method: 'POST',
    path: '/deployment_targets',
    operation: 'CreateDeploymentTarget',
    status: 201,
    location: '/deployment_targets/:id',
  }),
  ui({ method: 'GET', path: '/deployment_targets/:id', operation: 'GetDeploymentTarget', status: 200 }),
  ui({ method: 'DELETE', path: '/deployment_targets/:id', operation: 'DeleteDeploymentTarget', status: 204 }),
  ui({
    method: 'POST',
    path: '/deployment_targets/:id/metadata/refresh',
    operation: 'RefreshDeploymentTargetMetadata',
    status: 201,
    request: [ignoreBody],
  }),
  ui({
    method: 'GET',
    path: '/deployment_targets/:targetId/deployments',
    operation: 'UiListDeployments',
    status: 200,
    result: 'deploymentTarget.deployments',
    response: [serviceIdNames],
  }),
  ui({
    method: 'POST',
    path: '/deployment_targets/:targetId/deployments',
    operation: 'CreateDeployment',
    status: 201,
    location: '/deployment_targets/:targetId/deployments/:id',
    request: [deployResource],
  }),
  ui({ method: 'GET', path: '/deployment_targets/:targetId/deployments/:id', operation: 'GetDeployment', status: 200 }),
  ui({ method: 'DELETE', path: '/deployment_targets/:targetId/deployments/:id', operation: 'DeleteDeployment', status: 204 }),
  ui({
    method: 'POST',
    path: '/deployment_targets/:targetId/deployments/:id/redeploy',
    operation: 'RedeployDeployment',
    status: 200,
    request: [ignoreBody],
    response: [emptyObject],
  }),
  // jobs (J1–J7): the original's job runner
  { method: 'GET', path: '/jobs', unsupported: JOB_RUNNER },
  { method: 'POST', path: '/jobs', unsupported: JOB_RUNNER },
  { method: 'GET', path: '/jobs/:key', unsupported: JOB_RUNNER },
  { method: 'DELETE', path: '/jobs/:key', unsupported: JOB_RUNNER },
  { method: 'GET', path: '/jobs/:key/log', unsupported: JOB_RUNNER },
  { method: 'GET', path: '/job_templates', unsupported: JOB_RUNNER },
  { method: 'GET', path: '/job_templates/:id', unsupported: JOB_RUNNER },
];
