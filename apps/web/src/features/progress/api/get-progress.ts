import { useQuery } from '@tanstack/react-query';
import { ROUTES, toPath } from '@sea/contract/paths';
import { ClassProgressOfStudentsSchema, ClassProgressSchema, progressCsvName } from '@sea/contract/progress';
import { classKeys } from '../../../lib/class-keys.ts';
import { http } from '../../../lib/http.ts';
import { saveCsv } from '../../../lib/save-file.ts';

/** `GET /api/classes/{id}/progress` as a student: the caller's own progress in the class. */
export function useClassProgress(classId: number) {
  return useQuery({
    queryKey: classKeys.progress(classId),
    queryFn: () => http(toPath(ROUTES.progress, { classId }), { schema: ClassProgressSchema }),
    // Read again on every visit: the student comes back from a replay to see how far they got.
    staleTime: 0,
  });
}

/** `GET /api/classes/{id}/progress` as the teacher: every enrolled student's progress. */
export function useStudentsProgress(classId: number) {
  return useQuery({
    queryKey: classKeys.progress(classId),
    queryFn: () => http(toPath(ROUTES.progress, { classId }), { schema: ClassProgressOfStudentsSchema }),
    staleTime: 0,
  });
}

/** The teacher's `?format=csv`, saved as a file. */
export async function downloadProgressCsv(classId: number): Promise<void> {
  const text = await http<unknown>(toPath(ROUTES.progress, { classId }), {
    query: { format: 'csv' },
    bare: true,
  });
  saveCsv(text, progressCsvName(classId));
}
