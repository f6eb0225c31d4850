import { SECRET_MASK, SECRET_VARIABLE } from '../parts/secrets';

/** Keys whose values never reach the audit log. */
const SECRET_KEY = /pass(word)?|secret|token|auth_?blob|credential|private_?key|api_?key/i;
const MASK = SECRET_MASK;
const MAX_TEXT = 500;

/** Environment entries are masked by their variable's name; long texts are cut, lists and depth bounded. */
export function maskInput(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  if (depth > 6) return '…';
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => maskInput(item, depth + 1));
  const entries = Object.entries(value as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  const variable = (value as { variable?: unknown }).variable;
  for (const [key, inner] of entries) {
    if (inner === undefined) continue;
    if (SECRET_KEY.test(key) && inner !== null) out[key] = MASK;
    else if (key === 'value' && typeof variable === 'string' && SECRET_VARIABLE.test(variable)) out[key] = MASK;
    else out[key] = maskInput(inner, depth + 1);
  }
  return out;
}
