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
  students: (classId: number) => ['classes', classId, 'students'] as const,
  categories: ['categories'] as const,
};
