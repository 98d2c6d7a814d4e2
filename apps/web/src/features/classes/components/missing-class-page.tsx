import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Page } from '../../../components/ui/page.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import styles from './countdown-page.module.css';

/** A completion page reached without a class id: says so (once, as an alert) and offers a way on. */
export function MissingClassPage({
  title,
  message,
  linkLabel,
  to,
}: {
  title: string;
  message: string;
  linkLabel: string;
  to: string;
}) {
  const notify = useNotify();
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    notify(message, { tone: 'error' });
  }, [notify, message]);
  return (
    <Page className={styles.page}>
      <section className={styles.card}>
        <h1 className={styles.title}>{title}</h1>
        <p className={styles.missing}>{message}</p>
        <Link to={to}>{linkLabel}</Link>
      </section>
    </Page>
  );
}
