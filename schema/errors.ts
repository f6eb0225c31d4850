import { ERROR_CODES, type DomainError } from '../src/errors';
import { builder, USER_ERRORS } from './builder';

/** The catalogue's stable codes (src/errors.ts), as typed results' `code` and errors' `extensions.code`. */
export const ErrorCode = builder.enumType('ErrorCode', {
  description: 'The stable code of a failure (REST answers each with its HTTP status)',
  values: Object.fromEntries(ERROR_CODES.map(({ code, httpStatus }) => [code, { value: code, description: `HTTP ${httpStatus}` }])),
});

/** Every mutation's typed error results (`... on Error { code message fields }`), the entries REST answers with. */
export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  description: 'A failure the caller can fix; the mutation did nothing (or, for an upstream failure, nothing it can confirm)',
  fields: (t) => ({
    code: t.field({
      type: ErrorCode,
      description: 'VALIDATION_FAILED, NOT_FOUND, CONFLICT, BAD_REQUEST, UPSTREAM_FAILED or UPSTREAM_TIMEOUT',
      resolve: (e) => e.code,
    }),
    message: t.exposeString('message'),
    fields: t.exposeStringList('fields', { description: 'The offending input fields, snake_case as interface A names them' }),
  }),
});

const descriptions: Record<string, string> = {
  ValidationError: 'Well-formed but invalid input (REST: 422)',
  NotFoundError: 'An unknown id (REST: 404)',
  ConflictError: 'A duplicate of something that must be unique (REST: 409)',
  BadRequestError: 'Input that does not fit the schema (REST: 400)',
  UpstreamError: 'An agent, registry, git host or the container engine failed (REST: 502)',
  UpstreamTimeoutError: 'An upstream did not answer in time (REST: 504)',
};

for (const ErrorClass of USER_ERRORS) {
  builder.objectType(ErrorClass, {
    name: ErrorClass.name,
    description: descriptions[ErrorClass.name],
    interfaces: [ErrorInterface],
    fields: () => ({}),
  });
}
