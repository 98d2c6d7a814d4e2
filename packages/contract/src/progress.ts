import { z } from 'zod';

/** A replay counts as completed once this share (percent) of its seconds has been played. */
export const PROGRESS_COMPLETED_PERCENT = 90;

/** The query of `GET /api/classes/{classId}/progress`: `format=csv` (the teacher) for a file. */
export const ProgressQuerySchema = z.object({
  format: z.enum(['json', 'csv'], { error: 'format은 json 또는 csv여야 해요.' }).default('json'),
});

/** The progress CSV's header row (one line per student). */
export const PROGRESS_CSV_HEADER = ['학생', '진도율(%)', '완료한 다시보기', '다시보기 수'] as const;

/** The progress CSV's file name (Korean; sent as RFC 5987 `filename*`, with an ASCII `filename` beside it). */
export function progressCsvName(classId: number): string {
  return `진도율-${classId}.csv`;
}

/** One replay of the class as one student played it. */
export const SessionProgressSchema = z.object({
  session_id: z.number().int(),
  /** The replay's title (null: untitled, the web shows its date). */
  title: z.string().nullable(),
  started_at: z.string(),
  length_ms: z.number().int().min(0),
  /** Whole percent of the replay's seconds played, each second once. */
  percent: z.number().int().min(0).max(100),
  /** Where the student stopped, in milliseconds: '이어보기' opens the replay there. */
  last_position_ms: z.number().int().min(0),
  /** Played at least {@link PROGRESS_COMPLETED_PERCENT} percent. */
  completed: z.boolean(),
  /** The student's last beat on this replay; null if never opened. */
  last_watched_at: z.string().nullable(),
});
export type SessionProgress = z.infer<typeof SessionProgressSchema>;

/**
 * A student's progress (진도율) in a class: every replay students can watch (ready, not hidden), oldest first;
 * `class_percent` is the share of all those replays' seconds played (a long replay weighs more).
 */
export const ClassProgressSchema = z.object({
  class_percent: z.number().int().min(0).max(100),
  sessions: z.array(SessionProgressSchema),
});
export type ClassProgress = z.infer<typeof ClassProgressSchema>;

/** One enrolled student's progress, as the teacher sees it. */
export const StudentProgressSchema = ClassProgressSchema.extend({
  user_id: z.string(),
  nickname: z.string(),
});
export type StudentProgress = z.infer<typeof StudentProgressSchema>;

/** The teacher's answer: every enrolled student's progress, in Korean nickname order. */
export const ClassProgressOfStudentsSchema = z.object({
  students: z.array(StudentProgressSchema),
});
export type ClassProgressOfStudents = z.infer<typeof ClassProgressOfStudentsSchema>;
