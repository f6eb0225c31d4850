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

/**
 * Automatic persisted queries (Apollo's protocol) with yoga's plugin, over an in-memory LRU per
 * instance (a client whose hash another replica does not know just sends the text again). Any
 * client with a token can register documents, so entries are bounded in number and size.
 */
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

/**
 * Trusted documents: only documents the operator lists run, whichever transport brings them.
 * Over HTTP a client may send a known document's id alone (`extensions.persistedQuery.sha256Hash`,
 * as Apollo's persisted-query link does; yoga's persisted-operations plugin looks it up) or its
 * text; every document is checked when it is parsed, so SSE (both modes) and graphql-ws, which
 * bypass yoga's request parameters, are held to the same list. With introspection on,
 * introspection-only documents pass too (GraphiQL, codegen).
 */
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

/**
 * The documents of trusted-documents mode: every REST operation (interface A's, printed with the
 * fragments it uses) and those of `file`, in Apollo's persisted-query manifest format
 * (`{"format": "apollo-persisted-query-manifest", "operations": [{"id", "body"}]}`) or as a map of
 * id to document (graphql-codegen's client preset, Relay). Keyed by id; REST ones by sha256.
 */
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
