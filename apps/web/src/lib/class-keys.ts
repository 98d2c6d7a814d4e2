import type { ClassSort, ClassTarget } from '@sea/contract/classes';

/** A search query and sort of a class list (absent: no search, newest first). */
export type ClassSearch = { q?: string; sort?: ClassSort };

/**
 * Query keys of classes' server data, for every feature that reads or changes classes: one tree rooted at
 * `['classes']`, so a change to a class reaches every cached answer that may show it.
 */
export const classKeys = {
  all: ['classes'] as const,
  /** A paged list of `GET /api/classes`; every list of one target starts with `['classes', target]`. */
  list: (target: ClassTarget | 'all', category: number | null, search: ClassSearch = {}) =>
    ['classes', target, { category, ...search }] as const,
  topTen: () => ['classes', 'topten'] as const,
  livePreview: () => ['classes', 'live', 'preview'] as const,
  detail: (classId: number) => ['classes', classId, 'detail'] as const,
  role: (classId: number) => ['classes', classId, 'role'] as const,
  dashboard: (classId: number) => ['classes', classId, 'dashboard'] as const,
  /** The next schedule entries the class page shows to anyone. */
  upcomingSchedule: (classId: number) => ['classes', classId, 'upcoming-schedule'] as const,
  students: (classId: number) => ['classes', classId, 'students'] as const,
  /** The class's live sessions and their replays; a session's own answers (detail, chat, questions and polls) sit under it. */
  sessions: (classId: number) => ['classes', classId, 'sessions'] as const,
  session: (classId: number, sessionId: number) => ['classes', classId, 'sessions', sessionId] as const,
  sessionChat: (classId: number, sessionId: number) =>
    ['classes', classId, 'sessions', sessionId, 'chat'] as const,
  sessionClassroom: (classId: number, sessionId: number) =>
    ['classes', classId, 'sessions', sessionId, 'classroom'] as const,
  attendance: (classId: number) => ['classes', classId, 'attendance'] as const,
  /** Replay progress (진도율): the student's own, or every student's for the teacher. */
  progress: (classId: number) => ['classes', classId, 'progress'] as const,
  /** A session's questions (the live room's '질문' tab, kept with the session). */
  sessionQuestions: (classId: number, sessionId: number) =>
    ['classes', classId, 'sessions', sessionId, 'questions'] as const,
  /** A session's polls and quizzes with their results. */
  sessionPolls: (classId: number, sessionId: number) =>
    ['classes', classId, 'sessions', sessionId, 'polls'] as const,
  categories: ['categories'] as const,
};
