import { TEXT_PART_KEYS, TEXT_PARTS } from './image';
import { BadRequestError, ValidationError } from '../errors';

// Checked at the door for REST and GraphQL (variables and literals) before any resolver runs, so a
// field has one rule however it arrives (README "Limits"); NUL is refused: PostgreSQL cannot store it.
export const MAX_TEXT_CHARS: Record<string, number> = {
  name: 255,
  username: 255,
  email: 255,
  alias: 255,
  variable: 255,
  service: 255,

  proto: 16,
  host_interface: 255,
  file_name: 255,
  repo: 1024,
  image: 1024,
  from: 1024,
  source: 1024,
  container_path: 4096,
  host_path: 4096,
  expose: 255,
  endpoint_url: 2048,
  password: 1024,
  token: 1024,
  q: 1024,
  keywords: 4096,
  value: 64 * 1024,
  // whole documents: only the body limit (1 MiB) bounds them
  documentation: 1024 * 1024,
  compose_yaml: 1024 * 1024,
  auth_blob: 64 * 1024,
  content: 1024 * 1024,
  ...Object.fromEntries(TEXT_PART_KEYS.map((key) => [key, TEXT_PARTS[key].maxChars])),
};
export const DEFAULT_MAX_TEXT_CHARS = 4096;

export const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function checkInputTexts(value: unknown, field = '', depth = 0): void {
  if (depth > 64) throw new BadRequestError('the input is nested too deeply');
  if (typeof value === 'string') return checkText(value, field);
  if (Array.isArray(value)) {
    for (const item of value) checkInputTexts(item, field, depth + 1);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) throw new BadRequestError('a field name must not contain a NUL character');
      checkInputTexts(item, snake(key), depth + 1);
    }
  }
}

export function checkText(text: string, field: string): void {
  const name = field || 'input';
  if (text.includes('\u0000')) throw new BadRequestError(`${name} must not contain a NUL character`, field ? [field] : []);
  const max = MAX_TEXT_CHARS[field] ?? DEFAULT_MAX_TEXT_CHARS;
  if (text.length > max) throw new ValidationError(`${name} is longer than ${max} characters`, field ? [field] : []);
}
