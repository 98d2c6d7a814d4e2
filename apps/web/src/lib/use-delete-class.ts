import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InfiniteData } from '@tanstack/react-query';
import type { ClassItem } from '@sea/contract/classes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { classKeys } from './class-keys.ts';
import { http } from './http.ts';

/**
 * `DELETE /api/classes/{id}/delete` (teacher; soft delete), from my page's cards and the teacher dashboard alike.
 * On success the card leaves every cached paged list at once, and every answer about classes is marked stale
 * without refetching: a page still shown (the dashboard of the deleted class) would otherwise ask for the class
 * and fail before its navigation away. Stale answers are fetched again when a page shows them next.
 */
export function useDeleteClass() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (classId: number) => http(toPath(ROUTES.classDelete, { classId }), { method: 'DELETE' }),
    onSuccess: (_answer, classId) => {
      queryClient.setQueriesData<InfiniteData<ClassItem[]>>({ queryKey: classKeys.all }, (data) => {
        if (!data || !Array.isArray(data.pages)) return data;
        return { ...data, pages: data.pages.map((page) => page.filter((item) => item.id !== classId)) };
      });
      void queryClient.invalidateQueries({ queryKey: classKeys.all, refetchType: 'none' });
    },
  });
}
