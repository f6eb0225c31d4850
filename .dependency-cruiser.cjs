/**
 * The layering of the request flow, top to bottom: a module may import its own layer or one
 * below. `npm run lint:structure` checks it, that there are no import cycles, and that the agent
 * and the service share only the layers below them (docs/design.md "Rooms").
 */
const LAYERS = [
  [
    'entry',
    '^src/(main|app)\\.ts$|^src/agent/(main|app)\\.ts$|^src/auth/token-cli\\.ts$|^src/db/migration-create\\.ts$|^schema/print\\.ts$',
  ],
  ['doors', '^src/http/'],
  ['api', '^rest/|^schema/'],
  ['execution', '^src/graphql/'],
  ['wiring', '^src/(context|entities|automation)\\.ts$|^src/(events|hooks|outbound|audit)/'],
  ['targets', '^src/targets/'],
  ['apps', '^src/apps/'],
  ['history', '^src/history/'],
  ['catalog', '^src/catalog/'],
  ['agent', '^src/agent/'],
  ['auth', '^src/auth/'],
  ['parts', '^src/parts/'],
  ['engines', '^src/engines/'],
  ['storage', '^src/db/|^src/crypto/'],
  ['base', '^src/(net|yaml|observability)/|^src/[^/]+\\.ts$'],
];

const upward = [];
LAYERS.forEach(([name, path], i) => {
  const above = LAYERS.slice(0, i)
    .map(([, p]) => `(${p})`)
    .join('|');
  if (!above) return;
  upward.push({
    name: `no-upward-from-${name}`,
    severity: 'error',
    comment: `${name} imports only its own layer and those below it`,
    from: { path, pathNot: LAYERS.slice(0, i).map(([, p]) => p) },
    to: { path: above },
  });
});

/** The agent is a program of its own: it shares the container parts and the engine client, nothing of the service. */
const programs = [
  {
    name: 'agent-is-its-own-program',
    severity: 'error',
    from: { path: '^src/agent/' },
    to: {
      path: '^src/(auth|catalog|apps|history|targets|events|hooks|outbound|audit|http|graphql)/|^src/(context|entities|automation|app|main)\\.ts$|^rest/|^schema/',
    },
  },
  {
    name: 'the-service-does-not-import-the-agent',
    severity: 'error',
    from: { path: '^src/|^schema/|^rest/', pathNot: '^src/agent/|^src/db/migration-create\\.ts$' },
    to: { path: '^src/agent/' },
  },
];

module.exports = {
  forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }, ...upward, ...programs],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(test|bench|src/console|dist)/|node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
