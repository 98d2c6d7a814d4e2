import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { CategorySchema } from '@sea/contract/categories';
import type { Category } from '@sea/contract/categories';
import { ROUTES } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';
import { classKeys } from '../../../lib/class-keys.ts';

const CategoriesSchema = z.array(CategorySchema);

/** `GET /api/categories`: a bare array. */
export function getCategories(): Promise<Category[]> {
  return http(ROUTES.categories, { bare: true, schema: CategoriesSchema, anonymous: true });
}

/** The categories of the class forms; they rarely change, so they are kept for the session. */
export function useCategories() {
  return useQuery({ queryKey: classKeys.categories, queryFn: getCategories, staleTime: Infinity });
}
