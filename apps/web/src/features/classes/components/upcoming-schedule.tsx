import { Card } from '../../../components/ui/card.tsx';
import { useSeoulDay } from '../../../lib/use-seoul-day.ts';
import { useUpcomingSchedule } from '../api/get-upcoming-schedule.ts';
import { upcomingWhen } from '../format-upcoming.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { AddToCalendarButton } from './add-to-calendar-button.tsx';
import styles from './upcoming-schedule.module.css';

const texts = CLASS_TEXTS.info;

/**
 * The class page's next live sessions (anyone may read them), soonest first: '오늘' / '내일' or the date, the
 * time in Korean (Asia/Seoul, as schedules are written), and what the session is about. `now` is fixed by
 * tests; otherwise a moment of the current Seoul day, so that '오늘' moves on at midnight.
 */
export function UpcomingSchedule({ classId, now }: { classId: number; now?: Date }) {
  const query = useUpcomingSchedule(classId);
  const today = useSeoulDay();
  const at = now ?? today;
  return (
    <Card title={texts.upcomingTitle}>
      {query.isPending && <p className={styles.note}>{texts.upcomingLoading}</p>}
      {/* Not an alert: the page itself loaded, and the action beside it works without the schedule. */}
      {query.isError && <p className={styles.failed}>{texts.upcomingFailed}</p>}
      {query.data !== undefined && query.data.length === 0 && (
        <p className={styles.note}>{texts.upcomingEmpty}</p>
      )}
      {query.data !== undefined && query.data.length > 0 && (
        <ol className={styles.list} aria-label={texts.upcomingListLabel}>
          {query.data.map((entry) => {
            const when = upcomingWhen(entry, at);
            return (
              <li key={entry.id} className={styles.item}>
                <p className={styles.when}>
                  <span className={when.today ? styles.today : styles.day}>{when.day}</span>{' '}
                  <span className={styles.time}>{when.time}</span>
                </p>
                <p className={styles.content}>{entry.content}</p>
              </li>
            );
          })}
        </ol>
      )}
      <AddToCalendarButton classId={classId} />
    </Card>
  );
}
