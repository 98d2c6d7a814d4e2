import { useQuery } from '@tanstack/react-query';
import type { Instructor } from '@sea/contract/instructors';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

/** `GET /api/instructors/{userId}`. */
export function getInstructor(userId: string): Promise<Instructor> {
  return http<Instructor>(toPath(ROUTES.instructor, { userId }));
}

/** An instructor page's data; under `['classes']` so a change to any class refreshes the totals too. */
export function useInstructor(userId: string) {
  return useQuery({
    queryKey: ['classes', 'instructor', userId],
    queryFn: () => getInstructor(userId),
  });
}
