import { useId, type ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { useScope, type Scope } from './session';

/** A request that failed as a whole (network, 401, a GraphQL error without data). */
export function RequestError({ error }: { error?: CombinedError }) {
  if (!error) return null;
  const message = error.graphQLErrors[0]?.message ?? error.networkError?.message ?? error.message;
  return (
    <p role="alert" className="error">
      {message}
    </p>
  );
}

/** A mutation's typed error result (`... on Error { code message fields }`). */
export function resultError(result: { __typename?: string; message?: string } | null | undefined): string | null {
  if (!result || !result.__typename?.endsWith('Error')) return null;
  return result.message ?? result.__typename;
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
