import path from 'node:path';
import { z } from 'zod';
import type { QueryLimits } from './graphql/limits';

/**
 * The only reader of process.env for the main service. Parsed once; every problem is reported
 * at once, and the caller exits non-zero.
 */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DOCKER_HOST: z.string().regex(/^(unix|tcp):\/\//, 'must be unix:///path or tcp://host:port').optional(),
  GRAPHQL_INTROSPECTION: z.enum(['true', 'false']).default('true'),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().positive().default(12),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(30),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().positive().default(5000),
  GRAPHQL_MAX_COST: z.coerce.number().int().positive().default(50000),
  REGISTRY_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  REGISTRY_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  GIT_TIMEOUT_MS: z.coerce.number().int().positive().default(60000),
  GITHUB_URL: z.string().url().default('https://github.com'),
  TEMPLATE_REPO_ROOTS: z.string().default(''),
  GITHUB_TOKEN: z.string().optional(),
  AGENT_TIMEOUT_MS: z.coerce.number().int().positive().default(10000),
  AGENT_DEPLOY_TIMEOUT_MS: z.coerce.number().int().positive().default(120000),
  AGENT_MAX_RESPONSE_BYTES: z.coerce.number().int().positive().default(8 * 1024 * 1024),
});

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
  /** Directories under which local paths may be template repos (TEMPLATE_REPO_ROOTS, colon-separated); none by default. */
  templateRepoRoots: string[];
  githubToken?: string;
  /** Connect, headers and body deadline of a call to an agent. */
  agentTimeoutMs: number;
  /** Headers and body deadline of a deploy or redeploy: the agent may be pulling images. */
  agentDeployTimeoutMs: number;
  /** Largest answer read from an agent. */
  agentMaxResponseBytes: number;
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
    graphqlLimits: { maxDepth: e.GRAPHQL_MAX_DEPTH, maxAliases: e.GRAPHQL_MAX_ALIASES, maxTokens: e.GRAPHQL_MAX_TOKENS, maxCost: e.GRAPHQL_MAX_COST },
    registryTimeoutMs: e.REGISTRY_TIMEOUT_MS,
    registryAllowPrivate: e.REGISTRY_ALLOW_PRIVATE === 'true',
    gitTimeoutMs: e.GIT_TIMEOUT_MS,
    githubUrl: e.GITHUB_URL,
    templateRepoRoots: e.TEMPLATE_REPO_ROOTS.split(':').map((root) => root.trim()).filter(Boolean).map((root) => path.resolve(root)),
    githubToken: e.GITHUB_TOKEN,
    agentTimeoutMs: e.AGENT_TIMEOUT_MS,
    agentDeployTimeoutMs: e.AGENT_DEPLOY_TIMEOUT_MS,
    agentMaxResponseBytes: e.AGENT_MAX_RESPONSE_BYTES,
  };
}
