import { lazy, Suspense, useMemo } from 'react';
import { Provider } from 'urql';
import { createConsoleClient } from './client';
import { AppPage } from './pages/AppPage';
import { AppsPage } from './pages/AppsPage';
import { CatalogPage } from './pages/CatalogPage';
import { SignInPage } from './pages/SignInPage';
import { TargetPage } from './pages/TargetPage';
import { TargetsPage } from './pages/TargetsPage';
import { TemplatesPage } from './pages/TemplatesPage';
import { TokensPage } from './pages/TokensPage';
import { AuditPage } from './pages/AuditPage';
import { EventsPage } from './pages/EventsPage';
import { HooksPage } from './pages/HooksPage';
import { useRoute } from './router';
import { useSession } from './session';

// Loaded when first shown: the Markdown renderer is most of its weight, and the first page does not need it.
const TemplatePage = lazy(() => import('./pages/TemplatePage').then((m) => ({ default: m.TemplatePage })));

const SECTIONS = [
  { path: 'apps', label: 'Apps' },
  { path: 'templates', label: 'Templates' },
  { path: 'catalog', label: 'Catalog' },
  { path: 'targets', label: 'Targets' },
  { path: 'tokens', label: 'Tokens' },
  { path: 'hooks', label: 'Hooks' },
  { path: 'events', label: 'Events' },
  { path: 'audit', label: 'Audit' },
] as const;

export function Console() {
  const { session, loading, signOut, ended } = useSession();
  const csrf = session?.csrfToken;
  // One client (and cache) per session: signing in as someone else starts from nothing.
  const client = useMemo(() => (csrf ? createConsoleClient(csrf, ended) : null), [csrf, ended]);
  const [section = 'apps', id] = useRoute();

  if (loading) return <p className="loading">Loading…</p>;
  if (!session || !client) return <SignInPage />;

  return (
    <Provider value={client}>
      <header className="top">
        <a className="brand" href="#/apps">
          Platform
        </a>
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.path}>
                <a href={`#/${s.path}`} aria-current={section === s.path ? 'page' : undefined}>
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="who">
          <span>
            {session.username} <span className="scopes">({session.scopes.join(', ')})</span>
          </span>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main>
        {section === 'apps' && !id && <AppsPage />}
        {section === 'apps' && id && <AppPage id={Number(id)} />}
        {section === 'templates' && !id && <TemplatesPage />}
        {section === 'templates' && id && (
          <Suspense fallback={<p className="loading">Loading…</p>}>
            <TemplatePage id={Number(id)} />
          </Suspense>
        )}
        {section === 'catalog' && <CatalogPage />}
        {section === 'targets' && !id && <TargetsPage />}
        {section === 'targets' && id && <TargetPage id={Number(id)} />}
        {section === 'tokens' && <TokensPage />}
        {section === 'hooks' && <HooksPage />}
        {section === 'events' && <EventsPage />}
        {section === 'audit' && <AuditPage />}
        {!SECTIONS.some((s) => s.path === section) && <p role="alert">No such page.</p>}
      </main>
    </Provider>
  );
}
