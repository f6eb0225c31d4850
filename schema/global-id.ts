import { brandWithType, getTypeBrand, type OutputType, type SchemaTypes } from '@pothos/core';
import { BadRequestError, NotFoundError } from '../src/errors';

/**
 * A global id is base64 of `Type:key`: the database id, or `targetId:deploymentId` for a deployment
 * (agent-side ids repeat across targets). test/graphql/identity.test.ts checks this list against the schema.
 */
export const NODE_TYPES = new Set([
  'ApiToken',
  'App',
  'Category',
  'Deployment',
  'DeploymentTarget',
  'DeployHook',
  'EventSubscription',
  'Registry',
  'Service',
  'Template',
  'TemplateRepo',
]);

/** The typename `decodeGlobalID` gives an id this API did not give out (no type has it). */
const NOT_OURS = '';

type Decoded = { typename: string; id: string };

/**
 * An id this API did not give out decodes to a marker rather than throwing: the cost check decodes
 * `node`/`nodes` arguments before the operation runs, where an error would refuse the whole operation.
 */
export function decodeGlobalID(globalID: string): Decoded {
  const match = /^([A-Za-z]+):(.+)$/s.exec(Buffer.from(globalID, 'base64').toString('utf8'));
  const key = match?.[1] === 'Deployment' ? /^\d{1,15}:\d{1,15}$/ : /^\d{1,15}$/;
  if (!match || !NODE_TYPES.has(match[1]) || !key.test(match[2])) return { typename: NOT_OURS, id: globalID };
  return { typename: match[1], id: match[2] };
}

/** A BAD_REQUEST naming the argument, for an id that did not decode; null for one that did. */
export function invalidGlobalID(decoded: { typename: string; id: unknown }, argument: string): BadRequestError | null {
  if (decoded.typename !== NOT_OURS) return null;
  return new BadRequestError(`${JSON.stringify(decoded.id)} is not an id this API gave out`, [argument]);
}

/** `node(id:)`: its id decoded, or a field error. */
export function checkGlobalID<T extends { typename: string; id: unknown }>(decoded: T): T {
  const invalid = invalidGlobalID(decoded, 'id');
  if (invalid) throw invalid;
  return decoded;
}

/**
 * Branded with its id's type so `Node` never guesses by `isTypeOf`: a node the relay plugin serves from
 * its request cache unbranded would be taken for the first type whose `isTypeOf` accepts it.
 */
export function brandNode<T>(node: T, typename: string): T {
  if (typeof node === 'object' && node !== null && !(node instanceof Error) && getTypeBrand(node) === null)
    brandWithType(node, typename as OutputType<SchemaTypes>);
  return node;
}

/** `node(id:)`: the node, branded with its id's type. */
export async function resolveNodeOf(id: Decoded, resolveNode: (id: Decoded) => unknown): Promise<unknown> {
  return brandNode(await resolveNode(checkGlobalID(id)), id.typename);
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

/** `nodes(ids:)`: a BAD_REQUEST (null at its index) for each id not ours, the others answered. */
export async function resolveNodesOrErrors(ids: Decoded[], resolveNodes: (ids: Decoded[]) => Promise<unknown[]>): Promise<unknown[]> {
  const errors = ids.map((id, index) => invalidGlobalID(id, `ids.${index}`));
  // The relay plugin resolves the argument's own array, whatever is passed here, and skips its nulls.
  errors.forEach((error, index) => {
    if (error) (ids as (Decoded | null)[])[index] = null;
  });
  // An item may be another field's pending load: settled here so the value is branded, not its promise.
  const nodes = await Promise.allSettled(await resolveNodes(ids));
  // An Error as a list item is that item's field error, in graphql-js and graphql-jit alike.
  return nodes.map(
    (node, index) => errors[index] ?? (node.status === 'fulfilled' ? brandNode(node.value, ids[index].typename) : asError(node.reason)),
  );
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
