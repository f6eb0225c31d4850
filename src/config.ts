import path from 'node:path';
import { z } from 'zod';
import { parseCidr } from './net/cidr';

// The only reader of process.env for the main service: every problem is reported at once.
const otlpEndpoint = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), 'must be an http:// or https:// URL')
    .optional(),
);

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DOCKER_HOST: z
    .string()
    .regex(/^(unix|tcp):\/\//, 'must be unix:///path or tcp://host:port')
    .optional(),
  GRAPHQL_INTROSPECTION: z.enum(['true', 'false']).default('true'),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().positive().default(12),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(30),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().positive().default(5000),
  GRAPHQL_MAX_SPREADS: z.coerce.number().int().positive().default(500),
  GRAPHQL_MAX_COST: z.coerce.number().int().positive().default(50000),
  GRAPHQL_MAX_FIELD_REPEATS: z.coerce.number().int().positive().default(50),
  REGISTRY_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  REGISTRY_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  GIT_TIMEOUT_MS: z.coerce.number().int().positive().default(60000),
  GITHUB_URL: z.string().url().default('https://github.com'),
  TEMPLATE_REPO_ROOTS: z.string().default(''),
  GITHUB_TOKEN: z.string().optional(),
  AGENT_TIMEOUT_MS: z.coerce.number().int().positive().default(10000),
  AGENT_DEPLOY_TIMEOUT_MS: z.coerce.number().int().positive().default(120000),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const origins = value
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
      for (const origin of origins) {
        if (!isOrigin(origin)) ctx.addIssue({ code: 'custom', message: `"${origin}" is not an origin (scheme://host[:port], no path)` });
      }
      return origins;
    }),
  SUBSCRIPTION_TICKET_TTL_SECONDS: z.coerce.number().int().positive().max(3600).default(60),
  CONSOLE_DIR: z.string().min(1).optional(),
  CONSOLE_SESSION_TTL_SECONDS: z.coerce.number().int().positive().max(604800).default(43200),
  GRAPHQL_APQ: z.enum(['true', 'false']).default('true'),
  GRAPHQL_JIT: z.enum(['true', 'false']).default('true'),
  GRAPHQL_CHECK_LEAVES: z.enum(['true', 'false']).default('false'),
  GRAPHQL_DIRECT: z.enum(['true', 'false']).default('true'),
  GRAPHQL_TRUSTED_DOCUMENTS: z.enum(['true', 'false']).default('false'),
  GRAPHQL_TRUSTED_DOCUMENTS_FILE: z.string().min(1).optional(),
  GRAPHQL_BATCH_LIMIT: z.coerce.number().int().min(0).max(100).default(10),
  AGENT_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(8 * 1024 * 1024),
  APP_DEPENDENCY_TIMEOUT_MS: z.coerce.number().int().positive().default(120000),
  APP_NETWORK_POOL: z
    .string()
    .default('10.192.0.0/12')
    .refine((v) => {
      try {
        parseCidr(v);
        return true;
      } catch {
        return false;
      }
    }, 'must be an IPv4 CIDR such as 10.192.0.0/12'),
  APP_NETWORK_PREFIX: z.coerce.number().int().min(8).max(30).default(24),
  APP_BUILD_CONTEXT_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(100 * 1024 * 1024),
  LEGACY_UI_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  LEGACY_UI_HOST: z.string().min(1).default('127.0.0.1'),
  LEGACY_UI_SCOPE: z.enum(['read', 'write', 'deploy']).default('read'),
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .refine(
      (v) => v.split(',').every((cidr) => !cidr.trim() || isCidrOrAddress(cidr.trim())),
      'must be comma-separated IPv4 CIDRs or addresses',
    ),
  PUBLIC_URL: z.string().url().optional(),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).default(365),
  HOOK_RATE_LIMIT: z.coerce.number().int().positive().default(30),
  HOOK_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(60),
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10000),
  WEBHOOK_RETRY_DELAY_SECONDS: z.coerce.number().int().positive().default(5),
  WEBHOOK_RETRY_LIMIT: z.coerce.number().int().min(0).max(20).default(13),
  WEBHOOK_RESCUE_SECONDS: z.coerce.number().int().positive().default(30),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().positive().max(200).default(20),
  TARGET_HEALTH_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
  METRICS_ON_MAIN_PORT: z.enum(['true', 'false']).default('false'),
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint,
  APP_START_RESUME_AFTER_SECONDS: z.coerce.number().int().positive().max(86400).default(60),
  REVISION_RETENTION: z.coerce.number().int().min(2).default(20),
  SWITCH_GRACE_SECONDS: z.coerce.number().min(0).default(5),
  SWITCH_HEALTH_TIMEOUT_SECONDS: z.coerce.number().positive().default(120),
  ROLLBACK_ON_FAILURE: z.enum(['true', 'false']).default('true'),
});

function isCidrOrAddress(value: string): boolean {
  try {
    parseCidr(value.includes('/') ? value : `${value}/32`);
    return true;
  } catch {
    return false;
  }
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

export interface QueryLimits {
  /** Deepest field nesting an operation may have (introspection is exempt). */
  maxDepth: number;
  /** Aliased fields an operation may have, counted through its fragments. */
  maxAliases: number;
  maxTokens: number;
  /** Fragment spreads an operation may expand to (a fragment spread twice counts twice). */
  maxSpreads: number;
  /** Estimated cost (src/graphql/cost.ts): each field 1, times the sizes of the lists around it. */
  maxCost: number;
  /** Fields with one response name in one selection set, counted through its fragments. */
  maxFieldRepeats: number;
}

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  adminToken?: string;
  secretKey?: string;
  logLevel: string;
  dockerHost: string;
  introspection: boolean;
  graphqlLimits: QueryLimits;
  registryTimeoutMs: number;
  /** Registries may be on loopback and private addresses (never link-local or metadata). */
  registryAllowPrivate: boolean;
  gitTimeoutMs: number;
  githubUrl: string;
  /** Local paths outside these are never template repos; none by default. */
  templateRepoRoots: string[];
  githubToken?: string;
  /** Connect, headers and body deadline of a call to an agent. */
  agentTimeoutMs: number;
  /** Headers and body deadline of a deploy or redeploy: the agent may be pulling images. */
  agentDeployTimeoutMs: number;
  corsOrigins: string[];
  subscriptionTicketTtlSeconds: number;
  consoleDir?: string;
  consoleSessionTtlSeconds: number;
  apq: boolean;
  compiledQueries: boolean;
  /** Every compiled query's leaves are checked against their types (the test suite's guard; costs a walk of each result). */
  checkCompiledLeaves: boolean;
  /** One JSON operation over POST /graphql skips yoga's fetch layer. */
  directGraphQL: boolean;
  /** Only known documents run: the REST operations and those of `trustedDocumentsFile`. */
  trustedDocuments: boolean;
  trustedDocumentsFile?: string;
  /** 0: no batching. */
  batchLimit: number;
  agentMaxResponseBytes: number;
  /** For a compose `depends_on` condition (healthy, completed) of another service. */
  appDependencyTimeoutMs: number;
  appNetworkPool: string;
  appNetworkPrefix: number;
  appBuildContextMaxBytes: number;
  /** No token: it acts with `scope`, so it is meant for a trusted network beside the UI. */
  legacyUi?: { port: number; host: string; scope: 'read' | 'write' | 'deploy' };
  /** Peers whose X-Forwarded-For is believed; from anyone else the socket's address is the client's. */
  trustedProxies: string[];
  /** For the URLs of deploy hooks; unset: the request's own origin. */
  publicUrl?: string;
  /** Audit records older than this many days are pruned; 0 keeps them forever. */
  auditRetentionDays: number;
  automation: AutomationConfig;
  /** Either listener answers without a token only when bound to a private address. */
  metrics: { onMainPort: boolean; port?: number; host: string };
  /** An app start a process left half-done (it died) is finished by a replica after this long. */
  appStartResumeAfterSeconds: number;
  history: HistoryConfig;
}

/** Revisions and the health-gated switch (src/history, src/apps/app-history.ts). */
export interface HistoryConfig {
  /** Revisions kept per app or deployment (the current one and the one before it always stay). */
  retention: number;
  /** How long a new container without a health check must keep running before the old one goes. */
  graceMs: number;
  /** How long a new container's health check may take to say healthy. */
  healthTimeoutMs: number;
  /** A new version that does not get healthy is removed and the old one kept (unless a request says otherwise). */
  rollbackOnFailure: boolean;
}

export interface AutomationConfig {
  /** Calls per hook and window before 429; each replica counts its own. */
  hookRateLimit: number;
  hookRateWindowSeconds: number;
  /** Event receivers may be on loopback and private addresses (never link-local or metadata). */
  webhookAllowPrivate: boolean;
  webhookTimeoutMs: number;
  /** Doubles (with jitter) for `webhookRetryLimit` retries. */
  webhookRetryDelaySeconds: number;
  webhookRetryLimit: number;
  /** How often a delivery held by a replica that died is handed back to the queue. */
  webhookRescueSeconds: number;
  webhookConcurrency: number;
  /** 0: never. */
  targetHealthIntervalSeconds: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function parseConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    adminToken: e.ADMIN_TOKEN,
    secretKey: e.SECRET_KEY,
    logLevel: e.LOG_LEVEL,
    dockerHost: e.DOCKER_HOST ?? 'unix:///var/run/docker.sock',
    introspection: e.GRAPHQL_INTROSPECTION === 'true',
    graphqlLimits: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxSpreads: e.GRAPHQL_MAX_SPREADS,
      maxCost: e.GRAPHQL_MAX_COST,
      maxFieldRepeats: e.GRAPHQL_MAX_FIELD_REPEATS,
    },
    registryTimeoutMs: e.REGISTRY_TIMEOUT_MS,
    registryAllowPrivate: e.REGISTRY_ALLOW_PRIVATE === 'true',
    gitTimeoutMs: e.GIT_TIMEOUT_MS,
    githubUrl: e.GITHUB_URL,
    templateRepoRoots: e.TEMPLATE_REPO_ROOTS.split(':')
      .map((root) => root.trim())
      .filter(Boolean)
      .map((root) => path.resolve(root)),
    githubToken: e.GITHUB_TOKEN,
    agentTimeoutMs: e.AGENT_TIMEOUT_MS,
    agentDeployTimeoutMs: e.AGENT_DEPLOY_TIMEOUT_MS,
    corsOrigins: e.CORS_ORIGINS,
    subscriptionTicketTtlSeconds: e.SUBSCRIPTION_TICKET_TTL_SECONDS,
    consoleDir: e.CONSOLE_DIR ? path.resolve(e.CONSOLE_DIR) : undefined,
    consoleSessionTtlSeconds: e.CONSOLE_SESSION_TTL_SECONDS,
    apq: e.GRAPHQL_APQ === 'true',
    compiledQueries: e.GRAPHQL_JIT === 'true',
    checkCompiledLeaves: e.GRAPHQL_CHECK_LEAVES === 'true',
    directGraphQL: e.GRAPHQL_DIRECT === 'true' && e.GRAPHQL_TRUSTED_DOCUMENTS === 'false',
    trustedDocuments: e.GRAPHQL_TRUSTED_DOCUMENTS === 'true',
    trustedDocumentsFile: e.GRAPHQL_TRUSTED_DOCUMENTS_FILE ? path.resolve(e.GRAPHQL_TRUSTED_DOCUMENTS_FILE) : undefined,
    batchLimit: e.GRAPHQL_BATCH_LIMIT,
    agentMaxResponseBytes: e.AGENT_MAX_RESPONSE_BYTES,
    appDependencyTimeoutMs: e.APP_DEPENDENCY_TIMEOUT_MS,
    appNetworkPool: e.APP_NETWORK_POOL,
    appNetworkPrefix: e.APP_NETWORK_PREFIX,
    appBuildContextMaxBytes: e.APP_BUILD_CONTEXT_MAX_BYTES,
    legacyUi: e.LEGACY_UI_PORT === undefined ? undefined : { port: e.LEGACY_UI_PORT, host: e.LEGACY_UI_HOST, scope: e.LEGACY_UI_SCOPE },
    trustedProxies: e.TRUSTED_PROXIES.split(',')
      .map((v) => v.trim())
      .filter(Boolean)
      .map((v) => (v.includes('/') ? v : `${v}/32`)),
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    automation: {
      hookRateLimit: e.HOOK_RATE_LIMIT,
      hookRateWindowSeconds: e.HOOK_RATE_WINDOW_SECONDS,
      webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true',
      webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
      webhookRetryDelaySeconds: e.WEBHOOK_RETRY_DELAY_SECONDS,
      webhookRetryLimit: e.WEBHOOK_RETRY_LIMIT,
      webhookRescueSeconds: e.WEBHOOK_RESCUE_SECONDS,
      webhookConcurrency: e.WEBHOOK_CONCURRENCY,
      targetHealthIntervalSeconds: e.TARGET_HEALTH_INTERVAL_SECONDS,
    },
    metrics: { onMainPort: e.METRICS_ON_MAIN_PORT === 'true', port: e.METRICS_PORT, host: e.METRICS_HOST },
    appStartResumeAfterSeconds: e.APP_START_RESUME_AFTER_SECONDS,
    history: {
      retention: e.REVISION_RETENTION,
      graceMs: e.SWITCH_GRACE_SECONDS * 1000,
      healthTimeoutMs: e.SWITCH_HEALTH_TIMEOUT_SECONDS * 1000,
      rollbackOnFailure: e.ROLLBACK_ON_FAILURE === 'true',
    },
  };
}

export interface TracingSettings {
  /** OTLP/HTTP base URL; the SDK reads its other OTEL_* settings (protocol, headers, batching) itself. */
  endpoint: string;
  serviceName: string;
}

/**
 * Read before anything loads (the SDK must patch http, pg and graphql first), apart from the main
 * parse: a bad URL leaves tracing off here and parseConfig reports it.
 */
export function tracingSettings(defaultServiceName: string, env: NodeJS.ProcessEnv = process.env): TracingSettings | undefined {
  const endpoint = otlpEndpoint.safeParse(env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (!endpoint.success || !endpoint.data) return undefined;
  return { endpoint: endpoint.data, serviceName: env.OTEL_SERVICE_NAME || defaultServiceName };
}

/** For child processes (git), passed on as the OS would; not parsed, but read here so process.env has one reader. */
export function inheritedEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env };
}
