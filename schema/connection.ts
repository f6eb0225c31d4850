import { PothosValidationError } from '@pothos/core';
import { resolveCursorConnection, type DefaultConnectionArguments, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import type { KeysetPage } from '../src/db/keyset';
import { BadRequestError } from '../src/errors';
import { builder } from './builder';

/** Page sizes: `first`/`last` default to 20 and are capped at 100 (the cost limit counts them too). */
export const PAGE = { defaultSize: 20, maxSize: 100 } as const;

builder.globalConnectionField('totalCount', (t) =>
  t.int({
    description: 'Every item of the list, not only this page (one count query, run only when selected)',
    resolve: (connection) => connection.totalCount(),
  }),
);

/**
 * A Relay connection over a list ordered by id, paged in SQL (keyset on the id: see
 * src/db/keyset.ts). `page` gets the SQL window; `count` runs only if `totalCount` is asked for.
 */
export async function keysetConnection<T extends { id: number | null }>(
  args: DefaultConnectionArguments,
  page: (window: KeysetPage) => Promise<T[]>,
  count: () => Promise<number>,
) {
  try {
    const connection = await resolveCursorConnection(
      { args, toCursor: (node: T) => encodeCursor(node.id as number), ...PAGE },
      ({ before, after, limit, inverted }: ResolveCursorConnectionArgs) =>
        page({ before: decodeCursor(before, 'before'), after: decodeCursor(after, 'after'), limit, inverted }),
    );
    return { ...connection, totalCount: count };
  } catch (error) {
    // first/last below zero, or both: the caller's mistake, a 400 like any other bad argument.
    if (error instanceof PothosValidationError) throw new BadRequestError(error.message, ['first', 'last']);
    throw error;
  }
}

// Opaque to clients; inside, the id the keyset continues from.
function encodeCursor(id: number): string {
  return Buffer.from(`id:${id}`).toString('base64url');
}

function decodeCursor(cursor: string | undefined, arg: string): number | undefined {
  if (cursor === undefined) return undefined;
  const match = /^id:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new BadRequestError(`${arg} is not a cursor this list gave out`, [arg]);
  return Number(match[1]);
}
