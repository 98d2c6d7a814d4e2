import { useQuery } from '@tanstack/react-query';
import type { Category } from '@sea/contract/categories';
import { ROUTES } from '@sea/contract/paths';
import { http } from './http.ts';

/** `GET /api/categories` (bare array). They change only with a deployment, so they are cached for good. */
export function useCategories() {
  return useQuery({
    queryKey: ['categories'],
    queryFn: ({ signal }) => http<Category[]>(ROUTES.categories, { bare: true, anonymous: true, signal }),
    staleTime: Infinity,
  });
}
