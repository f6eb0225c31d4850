import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';

export type Scope = 'read' | 'write' | 'deploy' | 'admin';

/** What POST/GET /console/session answer (src/http/console-session.ts). */
export interface Session {
  username: string;
  email: string | null;
  scopes: Scope[];
  expiresAt: string;
  csrfToken: string;
}

interface SessionState {
  session: Session | null;
  /** Until the first GET /console/session answers. */
  loading: boolean;
  /** Answers the error to show, or null when signed in. */
  signIn: (token: string) => Promise<string | null>;
  signOut: () => Promise<void>;
  /** Forgets the session without asking the server (it answered 401: expired or revoked). */
  ended: () => void;
}

const SessionContext = createContext<SessionState | null>(null);

/**
 * The console's sign-in: the API token is sent once to /console/session, which answers an HttpOnly
 * cookie the page cannot read and a CSRF token it sends back with every GraphQL request. Nothing
 * is kept in browser storage.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<Session | null>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    void fetch('/console/session', { credentials: 'same-origin' })
      .then(async (res) => (res.ok ? ((await res.json()) as Session) : null))
      .catch(() => null)
      .then((current) => {
        setSession(current);
        setLoading(false);
      });
  }, []);

  const signIn = useCallback(async (token: string) => {
    const res = await fetch('/console/session', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    const body = (await res.json().catch(() => ({}))) as Session & { message?: string };
    if (!res.ok) return body.message ?? `sign-in failed (${res.status})`;
    setSession(body);
    return null;
  }, []);

  const signOut = useCallback(async () => {
    if (session) {
      await fetch('/console/session', { method: 'DELETE', credentials: 'same-origin', headers: { 'x-csrf-token': session.csrfToken } });
    }
    setSession(null);
  }, [session]);

  const ended = useCallback(() => setSession(null), []);

  return <SessionContext.Provider value={{ session, loading, signIn, signOut, ended }}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

const SCOPE_ORDER: Scope[] = ['read', 'write', 'deploy', 'admin'];

/**
 * Whether the signed-in token may do what needs `scope`, and if not, why: the reason a disabled
 * control shows, instead of an error after the click.
 */
export function useScope(scope: Scope): { allowed: boolean; reason?: string } {
  const { session } = useSession();
  const allowed = !!session && session.scopes.includes(scope);
  if (allowed) return { allowed };
  const top = session?.scopes.reduce<Scope>((a, b) => (SCOPE_ORDER.indexOf(b) > SCOPE_ORDER.indexOf(a) ? b : a), 'read') ?? 'read';
  return { allowed, reason: `Needs the ${scope} scope; this token has ${top}.` };
}
