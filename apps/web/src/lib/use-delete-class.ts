import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InfiniteData } from '@tanstack/react-query';
import type { ClassItem } from '@sea/contract/classes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { classKeys } from './class-keys.ts';
import { http } from './http.ts';

/** A page of a paged list as the catalogue caches it: its cards and the whole list's total. */
type ListPage = { items: ClassItem[]; total: number };

/** The pages without the deleted class; when a page held it, every page's total counts one less. */
export function withoutClass(pages: ListPage[], classId: number): ListPage[] {
  const held = pages.some((page) => page.items.some((item) => item.id === classId));
  if (!held) return pages;
  return pages.map((page) => ({
    items: page.items.filter((item) => item.id !== classId),
    total: page.total - 1,
  }));
}

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
      queryClient.setQueriesData<InfiniteData<ListPage>>({ queryKey: classKeys.all }, (data) => {
        if (!data || !Array.isArray(data.pages)) return data;
        return { ...data, pages: withoutClass(data.pages, classId) };
      });
      void queryClient.invalidateQueries({ queryKey: classKeys.all, refetchType: 'none' });
    },
  });
}
