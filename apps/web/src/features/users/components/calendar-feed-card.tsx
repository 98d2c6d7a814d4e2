import { useId } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ConfirmDangerButton } from '../../../components/ui/confirm-danger-button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { useCalendarUrl, useResetCalendarUrl } from '../api/calendar-url.ts';
import { USER_TEXTS } from '../texts.ts';
import styles from './calendar-feed-card.module.css';

const texts = USER_TEXTS.calendar;

/**
 * The user's private calendar feed: its URL to paste into Google, Apple or any calendar app, a copy button,
 * and a reset for a URL that was shared by mistake (the old one then stops working).
 */
export function CalendarFeedCard() {
  const feed = useCalendarUrl();
  const reset = useResetCalendarUrl();
  const notify = useNotify();
  const inputId = useId();
  const url = feed.data?.url;

  const copy = () => {
    if (url === undefined) return;
    navigator.clipboard.writeText(url).then(
      () => notify(texts.copied),
      () => notify(texts.copyFailed, { tone: 'error' }),
    );
  };

  return (
    <Card title={texts.title}>
      <p className={styles.lead}>{texts.lead}</p>
      {feed.isError && (
        <p role="alert" className={styles.failed}>
          {texts.loadFailed}
        </p>
      )}
      {url !== undefined && (
        <>
          <label htmlFor={inputId} className={styles.label}>
            {texts.urlLabel}
          </label>
          <div className={styles.row}>
            <input
              id={inputId}
              className={styles.url}
              readOnly
              value={url}
              onFocus={(event) => event.currentTarget.select()}
            />
            <Button size="sm" onClick={copy}>
              {texts.copy}
            </Button>
          </div>
          <ConfirmDangerButton
            size="sm"
            variant="secondary"
            busy={reset.isPending}
            ask={{ title: texts.resetTitle, body: texts.resetBody, confirmLabel: texts.resetConfirm }}
            onConfirm={(close) =>
              reset.mutate(undefined, {
                onSuccess: () => notify(texts.resetDone),
                onError: () => notify(texts.resetFailed, { tone: 'error' }),
                onSettled: close,
              })
            }
          >
            {texts.reset}
          </ConfirmDangerButton>
        </>
      )}
    </Card>
  );
}
