import type { Redis } from 'ioredis';
import { newRedis } from '../load-redis.ts';
import {
  MEDIA_REGISTRY_PREFIX,
  MEDIA_REGISTRY_STALE_MS,
  MEDIA_REGISTRY_TTL_MS,
  MediaNodeEntrySchema,
  type MediaNodeEntry,
} from '@sea/contract/media-registry';

export interface NodeRegistryOptions {
  url: string;
  /** Key prefix (tests use their own); {@link MEDIA_REGISTRY_PREFIX} by default. */
  prefix?: string;
  /** The expiry nodes write their entries with, and the age past which an entry is skipped (tests). */
  ttlMs?: number;
  staleMs?: number;
  log?: (message: string, error?: unknown) => void;
}

/** Rounds of SCAN at most: far more than any deployment's nodes need, and the loop stays bounded. */
const MAX_SCAN_ROUNDS = 1_000;
/** Deletes the entry KEYS[1] only while its `at` is ARGV[1] (compared and deleted in one step). */
const FORGET_SCRIPT = `local value = redis.call('GET', KEYS[1])
if value and cjson.decode(value).at == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * The media nodes alive now, as they register themselves in Redis (REDIS_URL; see
 * `apps/media/src/registry/registry-heartbeat.ts`): each node's entry expires a few seconds after its last
 * heartbeat, so listing the keys lists the live nodes; an entry that missed heartbeats (its remaining expiry
 * says so) or does not parse is skipped.
 */
export class NodeRegistry {
  readonly #redis: Redis;
  readonly #prefix: string;
  /** The least remaining expiry of an entry still fresh enough for new tickets. */
  readonly #freshPttlMs: number;

  constructor(options: NodeRegistryOptions) {
    this.#prefix = options.prefix ?? MEDIA_REGISTRY_PREFIX;
    this.#freshPttlMs =
      (options.ttlMs ?? MEDIA_REGISTRY_TTL_MS) - (options.staleMs ?? MEDIA_REGISTRY_STALE_MS);
    this.#redis = newRedis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const log = options.log ?? (() => undefined);
    this.#redis.on('error', (error: unknown) => log('media node registry redis', error));
  }

  /** Resolves once Redis is connected (tests). */
  ready(): Promise<void> {
    if (this.#redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => this.#redis.once('ready', () => resolve()));
  }

  /** The registered nodes; rejects while Redis cannot be reached. */
  async nodes(): Promise<MediaNodeEntry[]> {
    const keys: string[] = [];
    let cursor = '0';
    for (let round = 0; round < MAX_SCAN_ROUNDS; round += 1) {
      const [next, found] = await this.#redis.scan(cursor, 'MATCH', `${this.#prefix}*`, 'COUNT', 100);
      keys.push(...found);
      cursor = next;
      if (cursor === '0') break;
    }
    if (keys.length === 0) return [];
    const batch = this.#redis.pipeline();
    for (const key of new Set(keys)) batch.get(key).pttl(key);
    const replies = (await batch.exec()) ?? [];
    const nodes: MediaNodeEntry[] = [];
    for (let i = 0; i + 1 < replies.length; i += 2) {
      const [getError, value] = replies[i] ?? [];
      const [pttlError, pttl] = replies[i + 1] ?? [];
      if (getError || pttlError) throw getError ?? pttlError;
      // Expired between SCAN and GET, or not rewritten for a while: its node missed heartbeats (died, or
      // is too busy to take more students now).
      if (typeof value !== 'string' || typeof pttl !== 'number' || pttl < this.#freshPttlMs) continue;
      try {
        const parsed = MediaNodeEntrySchema.safeParse(JSON.parse(value));
        if (parsed.success) nodes.push(parsed.data);
      } catch {
        // Not JSON: not an entry of ours; skipped like any entry that does not parse.
      }
    }
    return nodes;
  }

  /**
   * Removes a node's entry, found gone, unless the node rewrote it meanwhile (its `at` changed: it is back), so
   * every reader of the registry (other API servers, the edges looking for a class's origin) leaves it out at
   * once. A live node taken for gone by mistake is back at its next heartbeat.
   */
  async forget(node: Pick<MediaNodeEntry, 'nodeId' | 'at'>): Promise<void> {
    await this.#redis.eval(FORGET_SCRIPT, 1, `${this.#prefix}${node.nodeId}`, node.at);
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}
