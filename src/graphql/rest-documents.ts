import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Kind, parse, print, visit, type DefinitionNode, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { camel, SERVICE_TEXT_PART_KEYS, TEXT_PART_KEYS, type TextPartKey } from '../parts/image';
import { fragmentsOf } from './selection';

const OPERATIONS_DIR = path.join(__dirname, '../../rest/operations');

/** The text parts under their file names, written from the parts' one table so a part added there is answered everywhere. */
function textPartFragments(): string {
  const members = (keys: readonly TextPartKey[]) => keys.map((key) => (camel(key) === key ? key : `${key}: ${camel(key)}`)).join(' ');
  return [
    `fragment ImageTextParts on Image { ${members(TEXT_PART_KEYS)} }`,
    `fragment ServiceTextParts on Service { ${members(SERVICE_TEXT_PART_KEYS)} }`,
  ].join('\n');
}

let document: DocumentNode | undefined;

/** Every operation and fragment of rest/operations/*.graphql, with the text parts' fragments; parsed once. */
export function restOperationsDocument(): DocumentNode {
  document ??= parse(
    [
      ...readdirSync(OPERATIONS_DIR)
        .filter((file) => file.endsWith('.graphql'))
        .sort()
        .map((file) => readFileSync(path.join(OPERATIONS_DIR, file), 'utf8')),
      textPartFragments(),
    ].join('\n'),
  );
  return document;
}

/** An operation with only the fragments it uses, as print() writes it: what a client would send for it. */
export function operationText(operation: OperationDefinitionNode, all: DocumentNode = restOperationsDocument()): string {
  const fragments = fragmentsOf(all);
  const used = new Set<string>();
  const pending: DefinitionNode[] = [operation];
  while (pending.length) {
    visit(pending.pop()!, {
      FragmentSpread(node) {
        if (used.has(node.name.value)) return;
        used.add(node.name.value);
        pending.push(fragments.get(node.name.value)!);
      },
    });
  }
  return print({ kind: Kind.DOCUMENT, definitions: [operation, ...[...used].sort().map((name) => fragments.get(name)!)] });
}

export function restOperationTexts(): string[] {
  return restOperationsDocument()
    .definitions.filter((def): def is OperationDefinitionNode => def.kind === Kind.OPERATION_DEFINITION)
    .map((operation) => operationText(operation));
}
