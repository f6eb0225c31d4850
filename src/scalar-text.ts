/** A mapping or list where a scalar is expected (a schema let it through, a peer sent it) shows as JSON, not "[object Object]". */
export function scalarText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
