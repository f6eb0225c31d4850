import { ValidationError } from './errors';

/** One problem of an input: `path` locates it for people, `field` for clients (the error body's `fields`). */
export interface Problem {
  path: string;
  field: string;
  message: string;
}

/** How a list of problems reads as one error message. */
export interface ProblemFormat {
  /** Before the list (`compose_yaml: `, `a.pmx: `). */
  prefix?: string;
  /** Between a problem's path and its message: `: ` (people's phrasing) or ` ` (a field then its predicate). */
  separator?: string;
  /** At most this many are listed, then "(and N more)". */
  limit?: number;
  /** After the list (a full stop). */
  suffix?: string;
  /** The error's fields instead of the problems' own (a whole document answering for its parts). */
  fields?: string[];
}

/**
 * The one collector of validation problems: every check adds to it, and it becomes one
 * ValidationError (422) naming every problem at once, with their fields: the error body's
 * `{code, message, fields}` (docs/contract.md, Errors).
 */
export class Problems {
  readonly list: Problem[] = [];

  /** `field` defaults to the path: a client is shown exactly where. */
  add(path: string, message: string, field: string = path): void {
    this.list.push({ path, field, message });
  }

  get size(): number {
    return this.list.length;
  }

  has(path: string): boolean {
    return this.list.some((p) => p.path === path);
  }

  error(format: ProblemFormat = {}): ValidationError {
    const { prefix = '', separator = ': ', limit = Infinity, suffix = '' } = format;
    const shown = this.list.slice(0, limit).map((p) => (p.path ? `${p.path}${separator}${p.message}` : p.message));
    const more = this.list.length > limit ? ` (and ${this.list.length - limit} more)` : '';
    const fields = format.fields ?? [...new Set(this.list.map((p) => p.field).filter((f) => f !== ''))];
    return new ValidationError(`${prefix}${shown.join('; ')}${more}${suffix}`, fields);
  }

  throwIfAny(format: ProblemFormat = {}): void {
    if (this.list.length > 0) throw this.error(format);
  }
}
