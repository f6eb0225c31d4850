/**
 * The text of a value parsed from YAML or JSON where a scalar is expected (a compose key the
 * compose-spec schema types as a string, an adapter's version, an error's code): a string,
 * number, boolean or null as String() writes it. A mapping or a list, which a schema let through
 * or a peer sent, is written as JSON, so a message or a setting shows what was given rather than
 * "[object Object]".
 */
export function scalarText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
