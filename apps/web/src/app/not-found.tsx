import { useNavigate } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { EmptyState } from '../components/ui/empty-state.tsx';
import { Page } from '../components/ui/page.tsx';
import { APP_TEXTS } from './texts.ts';
import styles from './not-found.module.css';

/** The 404 page: any unknown path, and a known one whose id cannot exist. */
export function NotFound() {
  const navigate = useNavigate();
  return (
    <Page className={styles.page}>
      <h1 className={styles.title}>{APP_TEXTS.notFoundTitle}</h1>
      <EmptyState message={APP_TEXTS.notFoundBody}>
        <Button onClick={() => navigate('/')}>{APP_TEXTS.backToMain}</Button>
      </EmptyState>
    </Page>
  );
}
