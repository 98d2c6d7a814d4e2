import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/database.ts';
import { HttpError } from '../errors.ts';

/** The longest a search's statements may run on PostgreSQL before it answers 503 (SEARCH_TIMEOUT). */
export const SEARCH_TIMEOUT_MS = 3000;

/**
 * Runs a search's statements in one transaction whose statements PostgreSQL stops after SEARCH_TIMEOUT_MS
 * (settings local to the transaction: the pooled connection keeps its own). A stopped search answers 503 in
 * Korean. PGlite runs in this process and has no timer to stop a statement: there the bound is the work
 * itself (a search visits at most SEARCH_MATCHES_MAX matches, see list-classes.ts).
 *
 * The same statement turns sequential scans off for the transaction: a search finds its matches through the
 * search document's indexes (search-condition.ts). Otherwise the planner, expecting thousands of matches and
 * stopping at SEARCH_MATCHES_MAX, often picks a sequential scan, which on a table larger than the shared
 * buffers reads through a small ring of buffers from wherever the last scan stopped, and reads all of it when
 * few classes match (bench/api/README.md, "Search as you type").
 */
export async function withSearchTimeout<T>(
  db: Database,
  search: (executor: Executor) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(
        sql.raw(
          `select set_config('statement_timeout', '${SEARCH_TIMEOUT_MS}', true), set_config('enable_seqscan', 'off', true)`,
        ),
      );
      return search(tx);
    });
  } catch (error) {
    if (isQueryCanceled(error)) throw searchTimedOut();
    throw error;
  }
}

export function searchTimedOut(): HttpError {
  return new HttpError(
    503,
    '검색이 너무 오래 걸려 멈췄어요. 검색어를 더 구체적으로 입력해 주세요.',
    'The search took too long and was stopped.',
  );
}

/** True when `error` (or what Drizzle wraps in `cause`) is PostgreSQL's query_canceled (57014). */
function isQueryCanceled(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (code === '57014') return true;
    current = cause;
  }
  return false;
}
