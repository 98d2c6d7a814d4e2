import { z } from 'zod';

/** One dependency's state in a readiness answer: answering, not answering, or not configured here. */
export const ReadinessCheckSchema = z.enum(['up', 'down', 'off']);
export type ReadinessCheck = z.infer<typeof ReadinessCheckSchema>;

/**
 * The answer of `GET /ready` on either service (200 when `ready`, else 503): each dependency it checked. The
 * API server checks `database`, `redis` (off without REDIS_URL) and `media` (a media node that reported lately
 * answers); the media service checks `api` (the API server answers).
 */
export const ReadinessSchema = z.object({
  ready: z.boolean(),
  checks: z.record(z.string(), ReadinessCheckSchema),
  /**
   * The API server's folders (`recordings`, `replays`) and the space left on their disks, in bytes; told, never
   * a reason to be unready (a replay waits for space by itself). Null where a folder's disk cannot be read.
   */
  space: z
    .record(z.string(), z.object({ free_bytes: z.number(), total_bytes: z.number() }).nullable())
    .optional(),
});
export type Readiness = z.infer<typeof ReadinessSchema>;

/** How long a readiness check waits for one dependency before it counts as down, in ms. */
export const READINESS_CHECK_MS = 2_000;

/** The answer for these checks: ready when none is down. */
export function readiness(checks: Record<string, ReadinessCheck>): Readiness {
  return { ready: Object.values(checks).every((check) => check !== 'down'), checks };
}
