import type { Redis } from 'ioredis';
import {
  MEDIA_REGISTRY_PREFIX,
  MEDIA_REGISTRY_STALE_MS,
  MEDIA_REGISTRY_TTL_MS,
  MediaNodeEntrySchema,
} from '@sea/contract/media-registry';

/** The origin an edge lost: its signalling URL, and when the edge lost it (performance.now()). */
export type LostOrigin = { url: string; lostAt: number };

/** Looks up where a class's teacher is now; null while no node holds it. */
export type FindOrigin = (classId: number, lost: LostOrigin) => Promise<string | null>;

export type OriginFinderOptions = {
  /** This node's own signalling URL: never its own origin. */
  self: string;
  prefix?: string;
  ttlMs?: number;
  staleMs?: number;
};

/** Rounds of SCAN at most: far more than any deployment's nodes need, and the loop stays bounded. */
const MAX_SCAN_ROUNDS = 1_000;

/**
 * Finds a class's origin in the registry of nodes, for an edge whose origin was lost (docs/media.md): a fresh
 * entry (see the API server's NodeRegistry) listing the class among its origins. The lost origin itself counts
 * only if its entry was written after the loss (it came back and the teacher with it), judged by the entry's
 * remaining expiry, so no clocks are compared; until then its last entries, still fresh for a few seconds,
 * are passed over.
 */
export function originFinder(redis: Redis, options: OriginFinderOptions): FindOrigin {
  const prefix = options.prefix ?? MEDIA_REGISTRY_PREFIX;
  const ttlMs = options.ttlMs ?? MEDIA_REGISTRY_TTL_MS;
  const freshPttlMs = ttlMs - (options.staleMs ?? MEDIA_REGISTRY_STALE_MS);
  return async (classId, lost) => {
    const keys = new Set<string>();
    let cursor = '0';
    for (let round = 0; round < MAX_SCAN_ROUNDS; round += 1) {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 100);
      for (const key of found) keys.add(key);
      cursor = next;
      if (cursor === '0') break;
    }
    if (keys.size === 0) return null;
    const batch = redis.pipeline();
    for (const key of keys) batch.get(key).pttl(key);
    const replies = (await batch.exec()) ?? [];
    const sinceLoss = performance.now() - lost.lostAt;
    for (let i = 0; i + 1 < replies.length; i += 2) {
      const value = replies[i]?.[1];
      const pttl = replies[i + 1]?.[1];
      if (typeof value !== 'string' || typeof pttl !== 'number' || pttl < freshPttlMs) continue;
      let parsed;
      try {
        parsed = MediaNodeEntrySchema.safeParse(JSON.parse(value));
      } catch {
        continue; // not JSON: not an entry of ours
      }
      if (!parsed.success || !parsed.data.origins.includes(classId)) continue;
      const { mediaUrl } = parsed.data;
      if (mediaUrl === options.self) continue;
      if (mediaUrl === lost.url && pttl <= ttlMs - sinceLoss) continue; // written before the loss
      return mediaUrl;
    }
    return null;
  };
}
