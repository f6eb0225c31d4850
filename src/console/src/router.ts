import { useEffect, useState } from 'react';

/**
 * The console's pages live in the URL's fragment (`/#/apps/5`): every path of the service itself
 * is interface A's or GraphQL's, and a fragment never reaches the server.
 */
export function useRoute(): string[] {
  const [hash, setHash] = useState(() => window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
}

export function navigate(path: string): void {
  window.location.hash = path;
}
