import { EngineRequestError } from '../engines/engine-errors';
import { DomainError } from '../errors';
import type { RunError } from './app.entity';

/** A failure as the service's `errors`: port taken and name clashes are said plainly. */
export function runError(error: unknown): RunError {
  if (error instanceof EngineRequestError && /port is already allocated|address already in use/i.test(error.engineMessage)) {
    return { code: 409, message: `a host port of this service is already in use: ${error.engineMessage}`, fields: 'ports' };
  }
  if (error instanceof DomainError) {
    const fields = error.fields.length ? error.fields : /pulling image/.test(error.message) ? ['from'] : [];
    return { code: error.httpStatus, message: error.message, fields: fields.join(',') };
  }
  return { code: 500, message: 'Unexpected error.', fields: '' };
}
