import type { Schedule } from '@sea/contract/schedules';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { useScheduleMutations } from '../api/schedule-mutations.ts';
import { formatScheduleDate, formatScheduleTime } from '../format-schedule.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { ScheduleForm } from './schedule-form.tsx';
import styles from './schedule-list.module.css';

const texts = CLASS_TEXTS.schedule;

/**
 * The class schedule by date and time; the teacher (`editable`) can add and remove entries. `loadFailed`:
 * the schedule could not be loaded again, so the catalogue's text stands in place of a list that may be old.
 */
export function ScheduleList({
  classId,
  schedules,
  editable = false,
  loadFailed = false,
}: {
  classId: number;
  schedules: readonly Schedule[];
  editable?: boolean;
  loadFailed?: boolean;
}) {
  const notify = useNotify();
  const { add, remove } = useScheduleMutations(classId);
  return (
    <Card title={texts.title}>
      {loadFailed && (
        <p role="alert" className={styles.failed}>
          {texts.loadFailed}
        </p>
      )}
      {!loadFailed && schedules.length === 0 && <p className={styles.empty}>{texts.empty}</p>}
      {!loadFailed && schedules.length > 0 && (
        <ol className={styles.list}>
          {schedules.map((schedule) => (
            <li key={schedule.id} className={styles.item}>
              <div className={styles.when}>
                <span className={styles.date}>{formatScheduleDate(schedule.date)}</span>
                <span className={styles.time}>
                  {texts.time(formatScheduleTime(schedule.start_time), formatScheduleTime(schedule.end_time))}
                </span>
              </div>
              <p className={styles.content}>{schedule.content}</p>
              {editable && (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={texts.removeLabel(schedule.content)}
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(schedule.id, {
                      onSuccess: () => notify(texts.removed, { tone: 'success' }),
                      onError: () => notify(texts.removeFailed, { tone: 'error' }),
                    })
                  }
                >
                  {texts.remove}
                </Button>
              )}
            </li>
          ))}
        </ol>
      )}
      {editable && (
        <ScheduleForm
          busy={add.isPending}
          onAdd={(schedule) =>
            add.mutateAsync(schedule).then(
              () => {
                notify(texts.added, { tone: 'success' });
                return true;
              },
              () => {
                notify(texts.addFailed, { tone: 'error' });
                return false;
              },
            )
          }
        />
      )}
    </Card>
  );
}
