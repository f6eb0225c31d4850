import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { operationText as textOf, restOperationsDocument } from '../../src/graphql/rest-documents';

/**
 * The text of a named REST operation (rest/operations/*.graphql) with the fragments it uses, so
 * POST /graphql asks for exactly what the REST route runs: the same data, the same aliases.
 */
export function operationText(name: string): string {
  const operation = restOperationsDocument().definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name,
  );
  if (!operation) throw new Error(`no operation ${name} in rest/operations`);
  return textOf(operation);
}

/**
 * An operation of your own over the REST operations' fragments (`query Q { templates { ...TemplateBody } }`),
 * for a GraphQL client's form of a route whose REST operation differs (an unpaged list the REST
 * route answers a page at a time).
 */
export function operationWithFragments(source: string): string {
  const [operation] = parse(source).definitions as OperationDefinitionNode[];
  return textOf(operation);
}
