import { BadRequestError } from '../../errors';
import { parseYamlBounded } from '../../yaml/parse';

/**
 * The one place compose YAML is parsed: YAML 1.1 merge keys (`<<: *defaults`) applied, anchors
 * and aliases resolved, within the bounds of parseYamlBounded (text size, depth, and the size
 * aliases expand to). A file that does not parse or is over a bound is a 400 on `field`.
 */
export function parseComposeDocument(text: string, field: string): unknown {
  try {
    return parseYamlBounded(text, { merge: true });
  } catch (error) {
    throw new BadRequestError(`${field}: not valid YAML: ${(error as Error).message.split('\n', 1)[0]}`, [field]);
  }
}
