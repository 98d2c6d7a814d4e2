/**
 * The id of the `<script type="application/json">` element in which the API server embeds, in the HTML of
 * a catalogue page, the answers of the GET requests that page makes first, so its first render needs no
 * round trip. The element holds {@link InitialAnswers}.
 */
export const INITIAL_ANSWERS_ID = 'sea-initial-answers';

/** Embedded answers: the JSON body of each GET request (keyed by {@link answerKey}) that answered 200. */
export type InitialAnswers = { answers: Record<string, unknown> };

/** A query parameter value as clients send it; null and undefined are left out. */
export type AnswerQueryValue = string | number | boolean | null | undefined;

/**
 * The key of a GET request: the path, then the query parameters sorted by name (so both sides agree
 * whatever order they build them in), e.g. `/api/classes?page=0&target=live`.
 */
export function answerKey(path: string, query: Record<string, AnswerQueryValue> = {}): string {
  const pairs: string[] = [];
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    if (value !== undefined && value !== null)
      pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return pairs.length === 0 ? path : `${path}?${pairs.join('&')}`;
}
