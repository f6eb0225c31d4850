import type { RestRoute } from './route';

/** Interface A: every path of the spec, as a GraphQL operation (rest/operations/*.graphql). */
export const routes = [
  // catalog
  { method: 'GET', path: '/search', operation: 'Search', status: 200, result: 'search.items' },
  { method: 'GET', path: '/platform', operation: 'GetPlatform', status: 200, result: 'platform.document' },
  { method: 'GET', path: '/user', operation: 'GetUser', status: 200 },
  { method: 'GET', path: '/keywords', operation: 'ListKeywords', status: 200 },
  { method: 'GET', path: '/types', operation: 'ListTypes', status: 200 },
  { method: 'GET', path: '/templates', operation: 'ListTemplates', status: 200 },
  { method: 'GET', path: '/templates/:id', operation: 'GetTemplate', status: 200 },
  { method: 'DELETE', path: '/templates/:id', operation: 'DeleteTemplate', status: 204 },
  { method: 'GET', path: '/template_repos', operation: 'ListTemplateRepos', status: 200 },
  { method: 'POST', path: '/template_repos', operation: 'CreateTemplateRepo', status: 200 },
  { method: 'POST', path: '/template_repos/:id', operation: 'ReloadTemplateRepo', status: 200 },
  { method: 'DELETE', path: '/template_repos/:id', operation: 'DeleteTemplateRepo', status: 204 },
  { method: 'GET', path: '/registries', operation: 'ListRegistries', status: 200 },
  { method: 'POST', path: '/registries', operation: 'CreateRegistry', status: 201 },
  { method: 'GET', path: '/registries/:id', operation: 'GetRegistry', status: 200 },
  { method: 'PATCH', path: '/registries/:id', operation: 'UpdateRegistry', status: 204 },
  { method: 'DELETE', path: '/registries/:id', operation: 'DeleteRegistry', status: 204 },
] as const satisfies readonly RestRoute[];
