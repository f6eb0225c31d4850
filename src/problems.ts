import { ValidationError } from './errors';

/** One problem of an input: `path` locates it for people, `field` for clients (the error body's `fields`). */
export interface Problem {
  path: string;
  field: string;
  message: string;
}

export interface ProblemFormat {
  prefix?: string;
  /** Between a problem's path and its message: `: ` (people's phrasing) or ` ` (a field then its predicate). */
  separator?: string;
  limit?: number;
  suffix?: string;
  /** The error's fields instead of the problems' own (a whole document answering for its parts). */
  fields?: string[];
}

/** Every check adds to it, so one 422 names every problem at once. */
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
