import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { useCountdown } from '../use-countdown.ts';
import styles from './countdown-page.module.css';

/** Seconds before the created and enrolment-complete pages move on (product-spec section 9). */
export const REDIRECT_SECONDS = 5;

export type CountdownPageProps = {
  title: string;
  lead?: string;
  countdownText: (seconds: number) => string;
  buttonLabel: string;
  /** Where the page goes after the countdown or on the button. */
  to: string;
};

/** A completion message that counts down from 5 and then moves on; the button moves on at once. */
export function CountdownPage({ title, lead, countdownText, buttonLabel, to }: CountdownPageProps) {
  const navigate = useNavigate();
  const go = useCallback(() => navigate(to, { replace: true }), [navigate, to]);
  const left = useCountdown(REDIRECT_SECONDS, go);
  return (
    <Page className={styles.page}>
      <section className={styles.card}>
        <span className={styles.wave} aria-hidden="true">
          🌊
        </span>
        <h1 className={styles.title}>{title}</h1>
        {lead && <p className={styles.lead}>{lead}</p>}
        <p className={styles.countdown} role="timer" aria-live="polite">
          {countdownText(left)}
        </p>
        <Button size="lg" onClick={go}>
          {buttonLabel}
        </Button>
      </section>
    </Page>
  );
}
