import YAML, { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node } from 'yaml';

// Bounds what aliases expand to: yaml's maxAliasCount refuses real compose files yet passes 480 aliases of a 1 MB string.

export interface YamlLimits {
  maxBytes: number;
  /** After resolving aliases: scalar characters (keys too) plus one per item, so empty nodes count. */
  maxExpandedChars: number;
  maxDepth: number;
  /** yaml finds each alias's anchor by scanning the nodes before it, so this number squared is its work. */
  maxAliases: number;
  merge?: boolean;
}

export const DEFAULT_YAML_LIMITS: YamlLimits = {
  maxBytes: 1024 * 1024,
  maxExpandedChars: 4 * 1024 * 1024,
  maxDepth: 64,
  maxAliases: 5_000,
};

export class YamlInputError extends Error {}

export function parseYamlBounded(text: string, limits: Partial<YamlLimits> = {}): unknown {
  const max = { ...DEFAULT_YAML_LIMITS, ...limits };
  checkYamlSize(text, max);
  let doc: Document.Parsed;
  try {
    doc = YAML.parseDocument(text, { uniqueKeys: true, merge: max.merge ?? false });
  } catch (error) {
    // A pathologically nested flow collection can exhaust the parser's stack.
    throw new YamlInputError(error instanceof RangeError ? 'the YAML text is nested too deeply' : firstLine(error));
  }
  if (doc.errors.length > 0) throw new YamlInputError(firstLine(doc.errors[0]));
  return toJSBounded(doc, max);
}

export function checkYamlSize(text: string, limits: Partial<YamlLimits> = {}): void {
  const max = { ...DEFAULT_YAML_LIMITS, ...limits };
  if (Buffer.byteLength(text, 'utf8') > max.maxBytes) throw new YamlInputError(`the YAML text is larger than ${max.maxBytes} bytes`);
}

/** For callers that parse the document themselves (template files keep its line counter). */
export function toJSBounded(doc: Document.Parsed, limits: Partial<YamlLimits> = {}): unknown {
  const max = { ...DEFAULT_YAML_LIMITS, ...limits };
  measure(doc, max);
  try {
    // Measured above, so yaml's own alias count is off.
    return doc.toJS({ maxAliasCount: -1 });
  } catch (error) {
    throw new YamlInputError(firstLine(error));
  }
}

function measure(doc: Document.Parsed, max: YamlLimits): void {
  const sizes = new Map<Node, number>();
  const open = new Set<Node>();
  // In document order the last node of a name is an alias's target; Alias.resolve rescans per alias.
  const anchors = new Map<string, Node>();
  let aliases = 0;
  const tooLarge = () =>
    new YamlInputError(`the YAML document expands to more than ${max.maxExpandedChars} characters (through its aliases)`);

  const sizeOf = (node: unknown, depth: number): number => {
    if (node === null || node === undefined) return 0;
    if (depth > max.maxDepth) throw new YamlInputError(`the YAML document is nested deeper than ${max.maxDepth} levels`);
    if (isAlias(node)) {
      if (++aliases > max.maxAliases) throw new YamlInputError(`the YAML document has more than ${max.maxAliases} aliases`);
      const target = anchors.get(node.source);
      if (!target) throw new YamlInputError(`unresolved alias *${node.source}`);
      if (open.has(target)) throw new YamlInputError(`the alias *${node.source} refers to a node that contains it`);
      return sizeOf(target, depth);
    }
    const known = sizes.get(node as Node);
    if (known !== undefined) return known;
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor) anchors.set(anchor, node as Node);
    let size = 0;
    if (isScalar(node)) {
      const text = typeof node.value === 'string' ? node.value : String(node.value);
      // PostgreSQL cannot store it, and a "\0" escape in a quoted string makes one.
      if (text.includes('\u0000')) throw new YamlInputError('a NUL character is not allowed');
      size = text.length;
    } else if (isPair(node)) {
      size = sizeOf(node.key, depth) + sizeOf(node.value, depth);
    } else if (isMap(node) || isSeq(node)) {
      open.add(node);
      for (const item of node.items as unknown[]) {
        size += 1 + sizeOf(item, depth + 1);
        if (size > max.maxExpandedChars) throw tooLarge();
      }
      open.delete(node);
    }
    if (size > max.maxExpandedChars) throw tooLarge();
    if (!isPair(node)) sizes.set(node as Node, size);
    return size;
  };
  sizeOf(doc.contents, 0);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n', 1)[0];
}
