import { useId, type ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { useScope, type Scope } from './session';

/** One line for a request that failed as a whole (network, 401, a GraphQL error without data). */
function errorMessage(error: CombinedError): string {
  return error.graphQLErrors[0]?.message ?? error.networkError?.message ?? error.message;
}

/** A failure, announced to screen readers as it appears; nothing when there is none. */
export function Alert({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <p role="alert" className="error">
      {message}
    </p>
  );
}

/** A request that failed as a whole. */
export function RequestError({ error }: { error?: CombinedError }) {
  return <Alert message={error && errorMessage(error)} />;
}

/**
 * What went wrong with a mutation, as one line, or null when it succeeded: the request as a whole,
 * or the typed error result in its root field `field` (`... on Error { message }`).
 */
export function failureOf<D>(result: { error?: CombinedError; data?: D }, field: keyof D): string | null {
  if (result.error) return errorMessage(result.error);
  const answer = result.data?.[field] as { __typename?: string; message?: string } | null | undefined;
  if (!answer?.__typename?.endsWith('Error')) return null;
  return answer.message ?? answer.__typename;
}

/**
 * A button for an action that needs a scope: disabled, with the reason shown beside it, when the
 * signed-in token lacks it.
 */
export function ScopedButton(props: {
  scope: Scope;
  onClick?: () => void;
  type?: 'button' | 'submit';
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const { allowed, reason } = useScope(props.scope);
  const reasonId = useId();
  return (
    <span className="scoped">
      <button
        type={props.type ?? 'button'}
        className={props.className}
        onClick={props.onClick}
        disabled={!allowed || props.disabled}
        aria-describedby={allowed ? undefined : reasonId}
      >
        {props.children}
      </button>
      {!allowed && (
        <span id={reasonId} className="reason">
          {reason}
        </span>
      )}
    </span>
  );
}

/** A service's state as one short word and its colour class. */
export function StateBadge({ active, sub }: { active?: string | null; sub?: string | null }) {
  const text = active ? `${active}${sub ? ` (${sub})` : ''}` : 'unknown';
  return <span className={`state state-${active ?? 'unknown'}`}>{text}</span>;
}
