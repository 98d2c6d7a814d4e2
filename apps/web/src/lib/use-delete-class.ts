import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InfiniteData } from '@tanstack/react-query';
import type { ClassItem } from '@sea/contract/classes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from './http.ts';
import { classKeys } from '../features/catalogue/api/class-page.ts';

/** `DELETE /api/classes/{id}/delete`; on success the card leaves every cached list at once. */
export function useDeleteClass() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (classId: number) => http(toPath(ROUTES.classDelete, { classId }), { method: 'DELETE' }),
    onSuccess: (_answer, classId) => {
      queryClient.setQueriesData<InfiniteData<ClassItem[]>>({ queryKey: classKeys.all }, (data) => {
        if (!data || !Array.isArray(data.pages)) return data;
        return { ...data, pages: data.pages.map((page) => page.filter((item) => item.id !== classId)) };
      });
      // Other lists (top ten, live preview) hold plain arrays: refetch them instead of editing.
      void queryClient.invalidateQueries({
        queryKey: classKeys.all,
        predicate: (query) => !Array.isArray((query.state.data as { pages?: unknown } | undefined)?.pages),
      });
    },
  });
}
