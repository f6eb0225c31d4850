import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Kind, OperationTypeNode, parse, type DocumentNode, type Source } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { createInMemoryAPQStore, useAPQ, type APQStore } from '@graphql-yoga/plugin-apq';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { ForbiddenError } from '../errors';
import { restOperationTexts } from './rest-documents';

/** A document a client may register with APQ; a larger one runs but is not kept. */
const MAX_APQ_DOCUMENT_BYTES = 64 * 1024;
const APQ_ENTRIES = 1000;
const APQ_TTL_MS = 24 * 3600 * 1000;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** APQ over a per-instance LRU (a replica without the hash gets the text resent); any token holder registers, hence the bounds. */
export function apqPlugin(): Plugin {
  const lru = createInMemoryAPQStore({ max: APQ_ENTRIES, ttl: APQ_TTL_MS });
  const store: APQStore = {
    get: (key) => lru.get(key),
    set: async (key, query) => {
      if (Buffer.byteLength(query) <= MAX_APQ_DOCUMENT_BYTES) await lru.set(key, query);
    },
  };
  return useAPQ({ store });
}

/** Only listed documents run, checked at parse as SSE and graphql-ws bypass yoga's params; introspection-only ones if enabled. */
export function trustedDocumentsPlugins(documents: ReadonlyMap<string, string>, allowIntrospection: boolean): Plugin[] {
  const knownTexts = new Set([...documents.values()].map(sha256));
  return [
    usePersistedOperations({ getPersistedOperation: (key) => documents.get(key) ?? null, allowArbitraryOperations: true }),
    {
      onParse: ({ params }) => {
        // Envelop types parse's arguments as `any`, for every graphql-js version; these are v16's.
        const { source: given } = params as { source: string | Source };
        const source = typeof given === 'string' ? given : given.body;
        if (knownTexts.has(sha256(source))) return undefined;
        return ({ result }) => {
          if (allowIntrospection && !(result instanceof Error) && result && isIntrospectionOnly(result as DocumentNode)) return;
          throw new ForbiddenError('this service runs only trusted documents, and this one is not among them');
        };
      },
    },
  ];
}

/** REST operations (by sha256 of their text) and `file`'s: an Apollo persisted-query manifest or an id → document map. */
export function loadTrustedDocuments(file: string | undefined): Map<string, string> {
  const documents = new Map<string, string>();
  for (const text of restOperationTexts()) documents.set(sha256(text), text);
  if (!file) return documents;
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`GRAPHQL_TRUSTED_DOCUMENTS_FILE ${file} cannot be read as JSON: ${(error as Error).message}`, { cause: error });
  }
  const entries = isApolloManifest(manifest)
    ? manifest.operations.map((op) => [op.id, op.body] as const)
    : Object.entries(manifest as Record<string, unknown>);
  for (const [id, body] of entries) {
    if (typeof body !== 'string') throw new Error(`GRAPHQL_TRUSTED_DOCUMENTS_FILE ${file}: the document of ${id} is not a string`);
    parse(body); // a broken manifest stops the start, not the first request that needs it
    documents.set(id, body);
  }
  return documents;
}

function isApolloManifest(value: unknown): value is { operations: { id: string; body: unknown }[] } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { format?: unknown }).format === 'apollo-persisted-query-manifest' &&
    Array.isArray((value as { operations?: unknown }).operations)
  );
}

function isIntrospectionOnly(document: DocumentNode): boolean {
  return document.definitions.every((def) => {
    if (def.kind === Kind.FRAGMENT_DEFINITION) return true;
    if (def.kind !== Kind.OPERATION_DEFINITION || def.operation !== OperationTypeNode.QUERY) return false;
    return def.selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value.startsWith('__'));
  });
}
