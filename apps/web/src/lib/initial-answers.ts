import { answerKey, INITIAL_ANSWERS_ID } from '@sea/contract/initial-answers';
import type { AnswerQueryValue, InitialAnswers } from '@sea/contract/initial-answers';

/**
 * How long after the page started loading an embedded answer may stand in for a request: as long as a
 * fetched answer stays fresh (the query client's stale time).
 */
export const INITIAL_ANSWER_MAX_AGE_MS = 30_000;

let answers: Map<string, unknown> | null = null;

/** Reads the answers the server embedded in this page's HTML, once; none when absent or unreadable. */
function embeddedAnswers(): Map<string, unknown> {
  if (answers !== null) return answers;
  answers = new Map();
  const element = typeof document === 'undefined' ? null : document.getElementById(INITIAL_ANSWERS_ID);
  if (element?.textContent) {
    try {
      const parsed = JSON.parse(element.textContent) as Partial<InitialAnswers>;
      for (const [key, body] of Object.entries(parsed.answers ?? {})) answers.set(key, body);
    } catch (error) {
      // The page still works without them: every request then goes to the server.
      console.error('Could not read the embedded answers', error);
    }
  }
  return answers;
}

/**
 * The body the server embedded for this GET request, at most once per request and only while the page is
 * fresh (then the request goes to the server like any other); undefined when there is none.
 */
export function takeInitialAnswer(
  path: string,
  query?: Record<string, AnswerQueryValue>,
): { body: unknown } | undefined {
  const all = embeddedAnswers();
  if (all.size === 0) return undefined;
  if (performance.now() > INITIAL_ANSWER_MAX_AGE_MS) {
    all.clear();
    return undefined;
  }
  const key = answerKey(path, query);
  if (!all.has(key)) return undefined;
  const body = all.get(key);
  all.delete(key);
  return { body };
}

/** Forgets what was read (tests render several pages in one document). */
export function resetInitialAnswers(): void {
  answers = null;
}
