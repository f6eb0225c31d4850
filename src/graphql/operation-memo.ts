import type { DocumentNode, GraphQLSchema } from 'graphql';

interface OperationArgs {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName?: string | null;
}

/**
 * What `make` finds for one operation of a parsed document, made once per schema, document and
 * operation name: yoga's parser cache hands the same document to every request that sends its text.
 */
export function perOperation<T>(
  make: (schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined) => T,
): (args: OperationArgs) => T {
  const bySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, T>>>();
  return ({ schema, document, operationName }) => {
    let byDocument = bySchema.get(schema);
    if (!byDocument) bySchema.set(schema, (byDocument = new WeakMap()));
    let byName = byDocument.get(document);
    if (!byName) byDocument.set(document, (byName = new Map<string, T>()));
    const name = operationName ?? '';
    let made = byName.get(name);
    if (made === undefined && !byName.has(name)) byName.set(name, (made = make(schema, document, operationName ?? undefined)));
    return made as T;
  };
}
