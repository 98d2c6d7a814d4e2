import type { ClassItem, ClassListEnvelope, ClassTarget } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

export type ClassPageQuery = { page: number; category?: number | null; target?: ClassTarget | null };

/** One page of a list and how many classes the whole list holds. */
export type ClassListPage = { items: ClassItem[]; total: number };

/**
 * One page of `GET /api/classes` (12 per page, newest first, `[]` past the end). Typed but not checked with
 * zod: this runs on the home page, whose first load leaves zod out.
 */
export function fetchClassPage(
  { page, category, target }: ClassPageQuery,
  signal?: AbortSignal,
): Promise<ClassItem[]> {
  return http<ClassItem[]>(ROUTES.classes, {
    query: { page, category, target },
    ...(signal ? { signal } : {}),
  });
}

/** The same page with the list's `total` (read from beside the envelope's `data`). */
export async function fetchClassListPage(
  { page, category, target }: ClassPageQuery,
  signal?: AbortSignal,
): Promise<ClassListPage> {
  const answer = await http<ClassListEnvelope>(ROUTES.classes, {
    query: { page, category, target },
    bare: true,
    ...(signal ? { signal } : {}),
  });
  return { items: answer.data, total: answer.total };
}
