// Free of zod: the web app's first load (cards highlight search words) must not bring the schemas in.

/** `sort` values of `GET /api/classes`: newest first, most students first, best rated first. */
export const CLASS_SORTS = ['newest', 'students', 'rating'] as const;
export type ClassSort = (typeof CLASS_SORTS)[number];

/** A search query is cut to this many characters and this many words. */
export const SEARCH_QUERY_MAX = 50;
export const SEARCH_WORDS_MAX = 5;

/**
 * The words of a search query: split on white space, at most SEARCH_WORDS_MAX, no duplicates. The server
 * matches them and the web app highlights them, so both split the same way.
 */
export function searchWords(query: string): string[] {
  const words = query
    .trim()
    .split(/\s+/u)
    .filter((word) => word !== '');
  return [...new Set(words)].slice(0, SEARCH_WORDS_MAX);
}
