import { ValidationError } from '../../errors';

// Compose Specification "Interpolation", from `env` only. An unset variable without a default
// becomes '' and is reported through `unset`, as compose warns.
export function interpolate(text: string, env: Record<string, string>, at: string, unset: Set<string>): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c !== '$') {
      out += c;
      i += 1;
      continue;
    }
    const next = text[i + 1];
    if (next === '$') {
      out += '$';
      i += 2;
    } else if (next === '{') {
      const end = closingBrace(text, i + 2);
      if (end < 0) throw new ValidationError(`${at}: "${text}" has an unclosed \${`, [at]);
      out += expand(text.slice(i + 2, end), env, at, unset);
      i = end + 1;
    } else {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))?.[0];
      if (!name) {
        out += '$';
        i += 1;
        continue;
      }
      out += lookup(name, env, unset);
      i += 1 + name.length;
    }
  }
  return out;
}

function closingBrace(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i += 1) {
    if (text[i] === '{') depth += 1;
    else if (text[i] === '}' && (depth -= 1) === 0) return i;
  }
  return -1;
}

function expand(inner: string, env: Record<string, string>, at: string, unset: Set<string>): string {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([\s\S]*))?$/.exec(inner);
  if (!match) throw new ValidationError(`${at}: "\${${inner}}" is not a valid substitution`, [at]);
  const [, name, op, rest = ''] = match;
  const value = env[name];
  const isSet = value !== undefined;
  const nonEmpty = isSet && value !== '';
  switch (op) {
    case undefined:
      return lookup(name, env, unset);
    case ':-':
      return nonEmpty ? value : interpolate(rest, env, at, unset);
    case '-':
      return isSet ? value : interpolate(rest, env, at, unset);
    case ':+':
      return nonEmpty ? interpolate(rest, env, at, unset) : '';
    case '+':
      return isSet ? interpolate(rest, env, at, unset) : '';
    default: {
      // `:?` and `?`: the file says the variable is required.
      if (op === ':?' ? nonEmpty : isSet) return value;
      const reason = interpolate(rest, env, at, unset) || `${name} is required`;
      throw new ValidationError(`${at}: required variable ${name} is missing a value: ${reason}`, [name]);
    }
  }
}

function lookup(name: string, env: Record<string, string>, unset: Set<string>): string {
  if (env[name] === undefined) unset.add(name);
  return env[name] ?? '';
}

/** Values only, not keys. */
export function interpolateTree(value: unknown, env: Record<string, string>, at: string, unset: Set<string>): unknown {
  if (typeof value === 'string') return interpolate(value, env, at, unset);
  if (Array.isArray(value)) return value.map((v, i) => interpolateTree(v, env, `${at}[${i}]`, unset));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateTree(v, env, at ? `${at}.${k}` : k, unset)]));
  }
  return value;
}
