import { useQuery } from '@tanstack/react-query';
import { ClassItemSchema } from '@sea/contract/classes';
import type { ClassItem } from '@sea/contract/classes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';
import { classKeys } from '../../../lib/class-keys.ts';

/** `GET /api/classes/{id}`: one class (public). */
export function getClass(classId: number): Promise<ClassItem> {
  return http(toPath(ROUTES.class, { classId }), { schema: ClassItemSchema });
}

export function useClass(classId: number) {
  return useQuery({ queryKey: classKeys.detail(classId), queryFn: () => getClass(classId) });
}
