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
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: ['classes', classId] });
      // Lists of other features (my page, catalogue) show the class too; they refetch when next shown.
      await queryClient.invalidateQueries();
    },
  });
}
