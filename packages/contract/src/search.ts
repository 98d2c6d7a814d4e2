// Free of zod: the web app's first load (cards highlight search words) must not bring the schemas in.

/** `sort` values of `GET /api/classes`: newest first, most students first, best rated first. */
export const CLASS_SORTS = ['newest', 'students', 'rating'] as const;
export type ClassSort = (typeof CLASS_SORTS)[number];

/** A search query holds at most this many characters and this many distinct words (more is refused). */
export const SEARCH_QUERY_MAX = 50;
export const SEARCH_WORDS_MAX = 5;
/**
 * A search ranks at most this many matching classes (the first found): a word found in every class costs
 * the same as a rarer one, and `total` says at most this many.
 */
export const SEARCH_MATCHES_MAX = 500;

/** The server's answer to a query of more than SEARCH_WORDS_MAX words, which the web app says before sending. */
export const SEARCH_WORDS_MESSAGE = `검색어는 단어 ${SEARCH_WORDS_MAX}개까지 입력할 수 있어요.`;

/** What is wrong with a query before it is sent (too many words), or null. */
export function searchQueryError(query: string): string | null {
  return distinctWords(query).length > SEARCH_WORDS_MAX ? SEARCH_WORDS_MESSAGE : null;
}

/**
 * The words of a search query: split on white space, at most SEARCH_WORDS_MAX, no duplicates. The server
 * matches them and the web app highlights them, so both split the same way.
 */
export function searchWords(query: string): string[] {
  return distinctWords(query).slice(0, SEARCH_WORDS_MAX);
}

/** Every distinct word of a query, however many (the contract refuses more than SEARCH_WORDS_MAX). */
export function distinctWords(query: string): string[] {
  const words = query
    .trim()
    .split(/\s+/u)
    .filter((word) => word !== '');
  return [...new Set(words)];
}
