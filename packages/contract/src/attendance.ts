import { z } from 'zod';
import { safeFileName, seoulDay } from './file-names.ts';

/** `?format=csv` of `GET /api/classes/{classId}/attendance` gives the CSV file instead of JSON. */
export const AttendanceQuerySchema = z.object({
  format: z.enum(['json', 'csv']).default('json'),
});
export type AttendanceQuery = z.infer<typeof AttendanceQuerySchema>;

/**
 * A student who first came into the live room more than this long after the session started is 지각 (late);
 * one who came earlier is 출석; one who never came is 결석 (a replay watched afterwards does not change it).
 */
export const ATTENDANCE_LATE_AFTER_S = 10 * 60;

/** What a row says of a student in a session (see ATTENDANCE_LATE_AFTER_S), and its Korean word. */
export const ATTENDANCE_STATUSES = ['present', 'late', 'absent'] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];
export const ATTENDANCE_STATUS_LABELS: Record<AttendanceStatus, string> = {
  present: '출석',
  late: '지각',
  absent: '결석',
};

/** The CSV's header row (UTF-8 with a BOM, so spreadsheet programs show the Korean). */
export const ATTENDANCE_CSV_HEADER = [
  '세션',
  '세션 시작',
  '세션 종료',
  '학생',
  '출석',
  '첫 입장',
  '마지막 퇴장',
  '입장 횟수',
  '실시간 시청(분)',
  '다시보기 시청(분)',
  '다시보기 진도율(%)',
] as const;

/** The CSV's name for clients that read only an ASCII name. */
export function attendanceCsvAsciiName(classId: number): string {
  return `attendance-${classId}.csv`;
}

/** The CSV's file name: `노션으로 하루 정리_출석부_2026-12-02` (the class, and the day it was taken, in Korea). */
export function attendanceCsvName(className: string, at: Date): string {
  return `${safeFileName(className, '강의')}_출석부_${seoulDay(at)}.csv`;
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
 * One student's record of one session: 출석 / 지각 / 결석, every join and leave, live and replay watch time in
 * seconds (the replay's: how many of its seconds the student played, each once), and the share of the replay
 * played.
 */
export const AttendanceRowSchema = z.object({
  session_id: z.number().int(),
  user_id: z.string(),
  nickname: z.string().nullable(),
  status: z.enum(ATTENDANCE_STATUSES),
  joins: z.array(AttendanceJoinSchema),
  live_watch_s: z.number().int().min(0),
  replay_watch_s: z.number().int().min(0),
  /** Percent (0-100, whole) of the replay's seconds played; null while the session has no replay. */
  replay_percent: z.number().int().min(0).max(100).nullable(),
});
export type AttendanceRow = z.infer<typeof AttendanceRowSchema>;

/**
 * `data` of `GET /api/classes/{classId}/attendance`: the class's name, sessions newest first; rows grouped by
 * session (newest first) then nickname, one for each student enrolled when the session was on (결석 when they
 * never came) and for each who joined its live room or watched its replay. A teacher gets every student's
 * rows, a student only their own.
 */
export const AttendanceSchema = z.object({
  class_name: z.string(),
  sessions: z.array(AttendanceSessionSchema),
  rows: z.array(AttendanceRowSchema),
});
export type Attendance = z.infer<typeof AttendanceSchema>;
