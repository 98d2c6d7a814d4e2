/**
 * Errors that say the database cannot be reached right now, rather than that a query is wrong: the socket
 * (refused, reset, timed out), postgres.js's connection states, PostgreSQL's connection-exception (08) and
 * shutdown (57P01-57P03) codes or its connection limit (53300), and a closed PGlite.
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const PGLITE_GONE = new Set(['PGlite is closed', 'PGlite is closing']);

/** True when `error` (or what it wraps: Drizzle puts the driver's error in `cause`) is the database being away. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (
      typeof code === 'string' &&
      (CONNECTION_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08'))
    ) {
      return true;
    }
    if (typeof message === 'string' && PGLITE_GONE.has(message)) return true;
    current = cause;
  }
  return false;
}
