import type { Redis } from 'ioredis';
import {
  MEDIA_REGISTRY_PREFIX,
  MEDIA_REGISTRY_STALE_MS,
  MEDIA_REGISTRY_TTL_MS,
} from '@sea/contract/media-registry';
import { freshEntries } from './fresh-entries.ts';

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
    const sinceLoss = performance.now() - lost.lostAt;
    for (const { entry, pttl } of await freshEntries(redis, prefix, freshPttlMs)) {
      const { mediaUrl } = entry;
      if (!entry.origins.includes(classId) || mediaUrl === options.self) continue;
      if (mediaUrl === lost.url && pttl <= ttlMs - sinceLoss) continue; // written before the loss
      return mediaUrl;
    }
    return null;
  };
}
