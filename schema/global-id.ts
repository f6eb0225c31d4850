import { BadRequestError, NotFoundError } from '../src/errors';

/**
 * The types that implement Node. A global id is base64 of `Type:key` (the relay plugin's
 * encoding): `key` is the database id, or `targetId:deploymentId` for a deployment, whose
 * agent-side id repeats across targets. test/graphql/identity.test.ts checks this list against
 * the schema.
 */
export const NODE_TYPES = new Set([
  'ApiToken',
  'App',
  'Category',
  'Deployment',
  'DeploymentTarget',
  'Registry',
  'Service',
  'Template',
  'TemplateRepo',
]);

/** A global id this API gave out, or a 400 naming the argument: never an internal error. */
export function decodeGlobalID(globalID: string): { typename: string; id: string } {
  const match = /^([A-Za-z]+):(.+)$/s.exec(Buffer.from(globalID, 'base64').toString('utf8'));
  if (!match || !NODE_TYPES.has(match[1])) throw new BadRequestError(`${JSON.stringify(globalID)} is not an id this API gave out`, ['id']);
  return { typename: match[1], id: match[2] };
}

/** `nodes(ids:)` reads at most this many, as a connection's page. */
export const MAX_NODES = 100;

export function checkNodeCount<T>(ids: T[]): T[] {
  if (ids.length > MAX_NODES) throw new BadRequestError(`nodes takes at most ${MAX_NODES} ids`, ['ids']);
  return ids;
}

/** The database id inside a global id. */
export function databaseId(key: string): number {
  if (!/^\d{1,15}$/.test(key)) throw new BadRequestError('not an id this API gave out', ['id']);
  return Number(key);
}

/**
 * `node(id:)` answers null for an id that no longer exists (Relay's contract); other lookups
 * keep their NOT_FOUND error beside the null (REST reads it back as a 404).
 */
export async function orNull<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}
