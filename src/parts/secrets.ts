/** Environment variables whose names say they hold a secret: their values are never shown back (audit log, diffs). */
export const SECRET_VARIABLE = /pass(word)?|secret|token|key|credential|auth/i;

export const SECRET_MASK = '***';

export function isSecretVariable(name: string): boolean {
  return SECRET_VARIABLE.test(name);
}
