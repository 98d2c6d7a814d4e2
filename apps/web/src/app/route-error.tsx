import { useEffect } from 'react';
import { useNavigate, useRouteError } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { EmptyState } from '../components/ui/empty-state.tsx';
import { Page } from '../components/ui/page.tsx';
import { NotFoundError } from '../lib/not-found-error.ts';
import { documentTitle } from './document-title.tsx';
import { NotFound } from './not-found.tsx';
import { APP_TEXTS } from './texts.ts';
import styles from './not-found.module.css';

/**
 * What a page shows instead of itself when it throws while rendering or loading (its module failed to load,
 * say): the 404 page for an address that cannot exist ({@link NotFoundError}), otherwise a Korean apology with
 * a way to reload or go home, never the router's developer screen.
 */
export function RouteError() {
  const error = useRouteError();
  const notFound = error instanceof NotFoundError;
  const navigate = useNavigate();

  useEffect(() => {
    if (!notFound) console.error('page failed', error);
    document.title = documentTitle(notFound ? APP_TEXTS.titles.notFound : APP_TEXTS.titles.error);
  }, [error, notFound]);

  if (notFound) return <NotFound />;
  return (
    <Page className={styles.page}>
      <h1 className={styles.title}>{APP_TEXTS.errorTitle}</h1>
      <div role="alert">
        <EmptyState message={APP_TEXTS.errorBody}>
          <Button onClick={() => window.location.reload()}>{APP_TEXTS.reload}</Button>
          <Button variant="secondary" onClick={() => navigate('/')}>
            {APP_TEXTS.backToMain}
          </Button>
        </EmptyState>
      </div>
    </Page>
  );
}
