import { useForm } from 'react-hook-form';
import { SCHEDULE_CONTENT_MAX, ScheduleCreateSchema } from '@sea/contract/schedules';
import type { ScheduleCreate } from '@sea/contract/schedules';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { toApiTime } from '../format-schedule.ts';
import { CLASS_TEXTS } from '../texts.ts';
import styles from './schedule-list.module.css';

const texts = CLASS_TEXTS.schedule;
const FIELDS = ['content', 'date', 'start_time', 'end_time'] as const;
type Values = Record<(typeof FIELDS)[number], string>;
const EMPTY: Values = { content: '', date: '', start_time: '', end_time: '' };

/**
 * Adds a schedule entry. The time inputs give `HH:MM`; the contract's schema (checked here, as on the
 * server) wants `HH:MM:SS` and an end after the start. `onAdd` resolves true when the entry was saved.
 */
export function ScheduleForm({
  onAdd,
  busy,
}: {
  onAdd: (schedule: ScheduleCreate) => Promise<boolean>;
  busy: boolean;
}) {
  const {
    register,
    handleSubmit,
    setError,
    reset,
    watch,
    formState: { errors },
  } = useForm<Values>({ defaultValues: EMPTY });

  const onSubmit = handleSubmit(async (values) => {
    const parsed = ScheduleCreateSchema.safeParse({
      ...values,
      start_time: toApiTime(values.start_time),
      end_time: toApiTime(values.end_time),
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = FIELDS.find((name) => name === issue.path[0]);
        if (field) setError(field, { message: issue.message });
      }
      return;
    }
    if (await onAdd(parsed.data)) reset(EMPTY);
  });

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label={texts.add}>
      <FormField
        label={texts.content}
        required
        error={errors.content?.message}
        count={{ text: watch('content'), max: SCHEDULE_CONTENT_MAX }}
      >
        {(control) => <input {...control} {...register('content')} />}
      </FormField>
      <div className={styles.row}>
        <FormField label={texts.date} required error={errors.date?.message}>
          {(control) => <input {...control} type="date" {...register('date')} />}
        </FormField>
        <FormField label={texts.start} required error={errors.start_time?.message}>
          {(control) => <input {...control} type="time" {...register('start_time')} />}
        </FormField>
        <FormField label={texts.end} required error={errors.end_time?.message}>
          {(control) => <input {...control} type="time" {...register('end_time')} />}
        </FormField>
      </div>
      <Button type="submit" variant="secondary" disabled={busy}>
        {busy ? texts.adding : texts.add}
      </Button>
    </form>
  );
}
