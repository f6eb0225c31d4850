import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Kind, parse, print, visit, type DefinitionNode, type FragmentDefinitionNode } from 'graphql';
import { ROOT } from './processes';

/**
 * The text of a named REST operation (rest/operations/*.graphql) with the fragments it uses, so
 * POST /graphql asks for exactly what the REST route runs: the same data, the same aliases.
 */
export function operationText(name: string): string {
  const dir = path.join(ROOT, 'rest/operations');
  const source = readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
  const document = parse(source);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name);
  if (!operation) throw new Error(`no operation ${name} in rest/operations`);
  const needed: DefinitionNode[] = [operation];
  const seen = new Set<string>();
  for (let i = 0; i < needed.length; i++) {
    visit(needed[i], {
      FragmentSpread(node) {
        if (seen.has(node.name.value)) return;
        seen.add(node.name.value);
        needed.push(fragments.get(node.name.value)!);
      },
    });
  }
  return needed.map((d) => print(d)).join('\n\n');
}
