import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

/** `DELETE /api/classes/{id}/delete` (teacher; soft delete). */
export function deleteClass(classId: number): Promise<unknown> {
  return http(toPath(ROUTES.classDelete, { classId }), { method: 'DELETE' });
}

export function useDeleteClass(classId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteClass(classId),
    // Every list that showed the class is now stale; nothing refetches at once, because the page still
    // shown would ask for the deleted class and fail before the navigation to my page.
    onSuccess: () => queryClient.invalidateQueries({ refetchType: 'none' }),
  });
}
