import { useState, type FormEvent } from 'react';
import { useSession } from '../session';

export function SignInPage() {
  const { signIn } = useSession();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(await signIn(token.trim()));
    setBusy(false);
  };

  return (
    <main className="sign-in">
      <h1>Platform console</h1>
      <form onSubmit={(e) => void submit(e)}>
        <label htmlFor="token">API token</label>
        <input
          id="token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-describedby={error ? 'sign-in-error' : 'token-help'}
          required
        />
        <p id="token-help" className="help">
          The service printed its admin token at first start (and wrote it to DATA_DIR/admin-token); <code>npm run token</code> issues
          others. It is exchanged for a session cookie and not kept in the browser.
        </p>
        {error && (
          <p id="sign-in-error" role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
