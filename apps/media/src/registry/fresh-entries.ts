import type { Redis } from 'ioredis';
import { MediaNodeEntrySchema, type MediaNodeEntry } from '@sea/contract/media-registry';

/** Rounds of SCAN at most: far more than any deployment's nodes need, and the loop stays bounded. */
const MAX_SCAN_ROUNDS = 1_000;

/**
 * The registry's entries under `prefix` still fresh (written less than the TTL less `freshPttlMs` ago: a node
 * that missed heartbeats is left out), with the expiry each has left, so callers can judge when one was
 * written without comparing clocks. Entries that are not ours (not JSON, not an entry) are skipped.
 */
export async function freshEntries(
  redis: Redis,
  prefix: string,
  freshPttlMs: number,
): Promise<{ entry: MediaNodeEntry; pttl: number }[]> {
  const keys = new Set<string>();
  let cursor = '0';
  for (let round = 0; round < MAX_SCAN_ROUNDS; round += 1) {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 100);
    for (const key of found) keys.add(key);
    cursor = next;
    if (cursor === '0') break;
  }
  if (keys.size === 0) return [];
  const batch = redis.pipeline();
  for (const key of keys) batch.get(key).pttl(key);
  const replies = (await batch.exec()) ?? [];
  const entries: { entry: MediaNodeEntry; pttl: number }[] = [];
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
    if (parsed.success) entries.push({ entry: parsed.data, pttl });
  }
  return entries;
}
