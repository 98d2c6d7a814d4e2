import type { ClassItem, ClassListEnvelope, ClassSort, ClassTarget } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

export type ClassPageQuery = {
  page: number;
  category?: number | null;
  target?: ClassTarget | null;
  q?: string | undefined;
  sort?: ClassSort | undefined;
};

/** One page of a list and how many classes the whole list holds. */
export type ClassListPage = { items: ClassItem[]; total: number };

/**
 * One page of `GET /api/classes` (12 per page, newest first or as `q` and `sort` say, `[]` past the end). Typed but not checked with
 * zod: this runs on the home page, whose first load leaves zod out.
 */
export function fetchClassPage(
  { page, category, target, q, sort }: ClassPageQuery,
  signal?: AbortSignal,
): Promise<ClassItem[]> {
  return http<ClassItem[]>(ROUTES.classes, {
    query: { page, category, target, q, sort },
    ...(signal ? { signal } : {}),
  });
}

/** The same page with the list's `total` (read from beside the envelope's `data`). */
export async function fetchClassListPage(
  { page, category, target, q, sort }: ClassPageQuery,
  signal?: AbortSignal,
): Promise<ClassListPage> {
  const answer = await http<ClassListEnvelope>(ROUTES.classes, {
    query: { page, category, target, q, sort },
    bare: true,
    ...(signal ? { signal } : {}),
  });
  return { items: answer.data, total: answer.total };
}
