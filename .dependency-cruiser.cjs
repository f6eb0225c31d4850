/**
 * The layering of the request flow, top to bottom: a module may import its own layer or one
 * below. `npm run lint:structure` checks it, and that there are no import cycles. The few imports
 * that run up are listed in ALLOWED_UP with their reason (docs/design.md repeats them).
 */
const LAYERS = [
  [
    'entry',
    '^src/(main|app)\\.ts$|^src/agent/(main|app)\\.ts$|^src/auth/token-cli\\.ts$|^src/db/migration-create\\.ts$|^schema/print\\.ts$',
  ],
  ['doors', '^src/http/'],
  ['api', '^rest/|^schema/'],
  ['execution', '^src/graphql/'],
  ['wiring', '^src/(context|entities)\\.ts$|^src/events/'],
  ['targets', '^src/targets/'],
  ['apps', '^src/apps/'],
  ['catalog', '^src/catalog/'],
  ['agent', '^src/agent/'],
  ['auth', '^src/auth/'],
  ['parts', '^src/parts/'],
  ['engines', '^src/engines/'],
  ['storage', '^src/db/|^src/crypto/'],
  ['base', '^src/(net|yaml|observability)/|^src/[^/]+\\.ts$'],
];

/** Imports that run up the layers on purpose: [from, to, why]. */
const ALLOWED_UP = [];

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
    to: { path: above, pathNot: ALLOWED_UP.filter(([from]) => new RegExp(from).test('')).map(([, to]) => to) },
  });
});

module.exports = {
  forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }, ...upward],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(test|bench|src/console|dist)/|node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
