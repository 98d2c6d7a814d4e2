import { lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { refreshTokens } from '../db/schema.ts';

/** How often a server removes refresh tokens that can never be used again. */
export const REFRESH_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** The first sweep waits a little, so that start-up (migrations, demo data) comes first. */
const FIRST_SWEEP_DELAY_MS = 60 * 1000;

/**
 * Deletes the refresh tokens of every family past its absolute limit: each token of such a family is expired,
 * so reuse detection has nothing left to protect. Every rotation adds a row, so without this the table only
 * grows. Safe to run on several servers at once. (Dev login codes are swept when new ones are issued.)
 */
export async function sweepExpiredRefreshTokens(db: Database, now = new Date()): Promise<number> {
  const removed = await db
    .delete(refreshTokens)
    .where(lt(refreshTokens.familyExpiresAt, now))
    .returning({ id: refreshTokens.id });
  return removed.length;
}

/** Sweeps a minute after start (at most `intervalMs`) and then every `intervalMs`, until the server closes. */
export function registerRefreshTokenSweep(
  app: FastifyInstance,
  intervalMs = REFRESH_SWEEP_INTERVAL_MS,
): void {
  const sweep = () => {
    sweepExpiredRefreshTokens(app.db).then(
      (removed) => {
        if (removed > 0) app.log.info({ removed }, 'expired refresh tokens removed');
      },
      // A failed sweep only delays the clean-up to the next one.
      (error: unknown) => app.log.warn({ err: error }, 'sweeping expired refresh tokens failed'),
    );
  };
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(
    () => {
      sweep();
      interval = setInterval(sweep, intervalMs);
      interval.unref();
    },
    Math.min(FIRST_SWEEP_DELAY_MS, intervalMs),
  );
  first.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(interval);
  });
}
