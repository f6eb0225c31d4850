import { BadRequestError } from '../../errors';
import { parseYamlBounded } from '../../yaml/parse';

/** With YAML 1.1 merge keys (`<<: *defaults`); a text that does not parse or is over a bound is a 400 on `field`. */
export function parseComposeDocument(text: string, field: string): unknown {
  try {
    return parseYamlBounded(text, { merge: true });
  } catch (error) {
    throw new BadRequestError(`${field}: not valid YAML: ${(error as Error).message.split('\n', 1)[0]}`, [field]);
  }
}
