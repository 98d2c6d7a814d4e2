/** Where the search box keeps the visitor's last searches (this browser only). */
const STORAGE_KEY = 'sea.recent-searches';
/** The search box shows this many recent searches at most. */
export const RECENT_SEARCHES_MAX = 5;

/** The visitor's recent searches, newest first; none when storage is unavailable or holds something else. */
export function readRecentSearches(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    if (!Array.isArray(stored)) return [];
    return stored.filter((item): item is string => typeof item === 'string').slice(0, RECENT_SEARCHES_MAX);
  } catch {
    // Storage refused (private mode) or damaged: the box simply shows no recent searches.
    return [];
  }
}

/** Puts `query` first among the recent searches (once), keeping RECENT_SEARCHES_MAX; answers the new list. */
export function addRecentSearch(query: string): string[] {
  const next = [query, ...readRecentSearches().filter((item) => item !== query)].slice(
    0,
    RECENT_SEARCHES_MAX,
  );
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Storage refused: the search itself goes on; only the memory of it is lost.
  }
  return next;
}
