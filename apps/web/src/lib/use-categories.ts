import { useQuery } from '@tanstack/react-query';
import type { Category } from '@sea/contract/categories';
import { ROUTES } from '@sea/contract/paths';
import { classKeys } from './class-keys.ts';
import { http } from './http.ts';

/**
 * `GET /api/categories` (bare array), for the catalogue's filter and the class forms alike. They change only with
 * a deployment, so they are cached for good. Typed but not checked with zod: the catalogue pages load without it.
 */
export function useCategories() {
  return useQuery({
    queryKey: classKeys.categories,
    queryFn: ({ signal }) => http<Category[]>(ROUTES.categories, { bare: true, anonymous: true, signal }),
    staleTime: Infinity,
  });
}
