import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

/** `POST /api/classes/{id}/enroll` with an empty body. */
export function enroll(classId: number): Promise<unknown> {
  return http(toPath(ROUTES.enroll, { classId }), { method: 'POST' });
}

export function useEnroll(classId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => enroll(classId),
    // The role, the student count and the classroom list all change: refetch what is shown next.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
