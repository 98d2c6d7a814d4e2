/** Query keys of this feature's server data, one place so mutations invalidate the right ones. */
export const classKeys = {
  all: ['classes'] as const,
  detail: (classId: number) => ['classes', classId, 'detail'] as const,
  role: (classId: number) => ['classes', classId, 'role'] as const,
  dashboard: (classId: number) => ['classes', classId, 'dashboard'] as const,
  students: (classId: number) => ['classes', classId, 'students'] as const,
  categories: ['categories'] as const,
};
