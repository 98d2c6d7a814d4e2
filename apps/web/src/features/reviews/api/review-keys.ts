/**
 * Query keys of a class's reviews: under the class's own `['classes', classId]` branch, so a change to the
 * class (or to every class) reaches them too.
 */
export const reviewKeys = {
  all: (classId: number) => ['classes', classId, 'reviews'] as const,
  summary: (classId: number) => ['classes', classId, 'reviews', 'summary'] as const,
  pages: (classId: number) => ['classes', classId, 'reviews', 'pages'] as const,
};
