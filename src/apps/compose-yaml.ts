import YAML from 'yaml';
import { BadRequestError } from '../errors';

/**
 * The one place compose YAML is parsed (so a bounded parse helper can replace it): YAML 1.1
 * merge keys (`<<: *defaults`) applied, anchors and aliases resolved with a bound on alias
 * expansion. A file that does not parse is a 400 on `field`.
 */
export function parseComposeDocument(text: string, field: string): unknown {
  try {
    return YAML.parse(text, { merge: true, maxAliasCount: 1000 });
  } catch (error) {
    throw new BadRequestError(`${field}: not valid YAML: ${(error as Error).message.split('\n', 1)[0]}`, [field]);
  }
}
