import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ClassStudentSchema } from '@sea/contract/classes';
import type { ClassStudent } from '@sea/contract/classes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';
import { classKeys } from '../../../lib/class-keys.ts';

const StudentsSchema = z.array(ClassStudentSchema);

/** `GET /api/classes/{id}/dashboard/students` (teacher): students with their enrolment time. */
export function getClassStudents(classId: number): Promise<ClassStudent[]> {
  return http(toPath(ROUTES.dashboardStudents, { classId }), { schema: StudentsSchema });
}

export function useClassStudents(classId: number) {
  return useQuery({ queryKey: classKeys.students(classId), queryFn: () => getClassStudents(classId) });
}
