/**
 * The constraint behind a PostgreSQL unique violation (SQLSTATE 23505), or null for any other error. Drivers
 * differ (postgres.js says `constraint_name`, PGlite `constraint`) and Drizzle wraps them in `cause`.
 */
export function uniqueViolation(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const record = current as {
      code?: unknown;
      constraint_name?: unknown;
      constraint?: unknown;
      cause?: unknown;
    };
    if (record.code === '23505') {
      const name = record.constraint_name ?? record.constraint;
      return typeof name === 'string' ? name : '';
    }
    current = record.cause;
  }
  return null;
}
