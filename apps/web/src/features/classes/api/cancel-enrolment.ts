import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

/** `DELETE /api/classes/{id}/enroll` (수강 취소). */
export function cancelEnrolment(classId: number): Promise<unknown> {
  return http(toPath(ROUTES.enroll, { classId }), { method: 'DELETE' });
}

export function useCancelEnrolment(classId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelEnrolment(classId),
    // The role, the student count and the classroom list change. Marked stale, not refetched here: the
    // dashboard on screen would ask again as a non-student; the next page reads them afresh.
    onSuccess: () => queryClient.invalidateQueries({ refetchType: 'none' }),
  });
}
