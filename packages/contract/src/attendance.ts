import { z } from 'zod';

/** `?format=csv` of `GET /api/classes/{classId}/attendance` gives the CSV file instead of JSON. */
export const AttendanceQuerySchema = z.object({
  format: z.enum(['json', 'csv']).default('json'),
});
export type AttendanceQuery = z.infer<typeof AttendanceQuerySchema>;

/** The CSV's header row (UTF-8 with a BOM, so spreadsheet programs show the Korean). */
export const ATTENDANCE_CSV_HEADER = [
  '세션 시작',
  '세션 종료',
  '학생',
  '첫 입장',
  '마지막 퇴장',
  '입장 횟수',
  '실시간 시청(분)',
  '다시보기 시청(분)',
  '다시보기 진도율(%)',
] as const;

/** The CSV's file name. */
export function attendanceCsvName(classId: number): string {
  return `attendance-${classId}.csv`;
}

/** A session as the attendance record names it. */
export const AttendanceSessionSchema = z.object({
  id: z.number().int(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  title: z.string().nullable(),
});
export type AttendanceSession = z.infer<typeof AttendanceSessionSchema>;

/** One stay in the live room; `left_at` is null while the student is still there. */
export const AttendanceJoinSchema = z.object({
  joined_at: z.string(),
  left_at: z.string().nullable(),
});
export type AttendanceJoin = z.infer<typeof AttendanceJoinSchema>;

/**
 * One student's record of one session: every join and leave, live and replay watch time in seconds (the
 * replay's: how many of its seconds the student played, each once), and the share of the replay played.
 */
export const AttendanceRowSchema = z.object({
  session_id: z.number().int(),
  user_id: z.string(),
  nickname: z.string().nullable(),
  joins: z.array(AttendanceJoinSchema),
  live_watch_s: z.number().int().min(0),
  replay_watch_s: z.number().int().min(0),
  /** Percent (0-100, whole) of the replay's seconds played; null while the session has no replay. */
  replay_percent: z.number().int().min(0).max(100).nullable(),
});
export type AttendanceRow = z.infer<typeof AttendanceRowSchema>;

/**
 * `data` of `GET /api/classes/{classId}/attendance`: sessions newest first; rows grouped by session (newest
 * first) then nickname, one for each student who joined the live room or watched the replay of that session.
 * A teacher gets every student's rows, a student only their own.
 */
export const AttendanceSchema = z.object({
  sessions: z.array(AttendanceSessionSchema),
  rows: z.array(AttendanceRowSchema),
});
export type Attendance = z.infer<typeof AttendanceSchema>;
