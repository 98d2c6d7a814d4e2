import { z } from 'zod';
import { id } from './ids.ts';
import { requiredText } from './text.ts';

/** Longest schedule content, in characters. */
export const SCHEDULE_CONTENT_MAX = 200;

/** The class page shows at most this many upcoming schedule entries (`GET .../schedule/upcoming`). */
export const UPCOMING_SCHEDULE_SIZE = 5;

export { SCHEDULE_TIME_ZONE } from './time-zone.ts';

/** Body of `POST /api/classes/{id}/schedule`. */
export const ScheduleCreateSchema = z
  .object({
    content: requiredText('일정 내용을 입력해 주세요.', {
      max: SCHEDULE_CONTENT_MAX,
      multiline: false,
    }),
    date: z.iso.date('날짜는 YYYY-MM-DD 형식이어야 해요.'),
    start_time: z.iso.time({ precision: 0, error: '시작 시간은 HH:MM:SS 형식이어야 해요.' }),
    end_time: z.iso.time({ precision: 0, error: '종료 시간은 HH:MM:SS 형식이어야 해요.' }),
  })
  .refine((s) => s.start_time < s.end_time, {
    path: ['end_time'],
    error: '종료 시간은 시작 시간보다 늦어야 해요.',
  });
export type ScheduleCreate = z.input<typeof ScheduleCreateSchema>;

/** Body of `DELETE /api/classes/{id}/schedule`. */
export const ScheduleDeleteSchema = z.object({
  schedule_id: id('올바른 일정 번호가 필요해요.'),
});

/** One schedule entry. */
export const ScheduleSchema = z.object({
  id: z.number().int(),
  class_id: z.number().int(),
  content: z.string(),
  date: z.string(),
  start_time: z.string(),
  end_time: z.string(),
});
export type Schedule = z.infer<typeof ScheduleSchema>;
