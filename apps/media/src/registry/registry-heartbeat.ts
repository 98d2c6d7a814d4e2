import { Redis } from 'ioredis';
import {
  MEDIA_REGISTRY_HEARTBEAT_MS,
  MEDIA_REGISTRY_PREFIX,
  MEDIA_REGISTRY_STALE_MS,
  MEDIA_REGISTRY_TTL_MS,
  type MediaNodeEntry,
} from '@sea/contract/media-registry';
import { log } from '../log.ts';
import { freshEntries } from './fresh-entries.ts';
import { originFinder, type FindOrigin } from './origin-finder.ts';

export type RegistryHeartbeatOptions = {
  url: string;
  /** The node's entry now, without its time (written on every beat). */
  entry: () => Omit<MediaNodeEntry, 'at'>;
  /** Key prefix (tests use their own); {@link MEDIA_REGISTRY_PREFIX} by default. */
  prefix?: string;
  heartbeatMs?: number;
  ttlMs?: number;
  warn?: (line: string) => void;
};

/** How often a failing Redis is told about at most. */
const WARN_EVERY_MS = 30_000;
/** How long a stop waits to learn whether other nodes run. */
const OTHERS_TIMEOUT_MS = 1_000;

/**
 * Keeps this node's entry in the Redis registry of media nodes (REDIS_URL): written every heartbeat with an
 * expiry of a few beats, and at once after {@link changed} (a room opened or closed, a student came or went),
 * one write at a time. A node that stops (or dies) drops out when its entry expires; {@link close} removes it
 * at once. A Redis that cannot be reached is told about, never thrown: the node keeps serving its rooms.
 */
export class RegistryHeartbeat {
  private readonly redis: Redis;
  private readonly options: Required<Omit<RegistryHeartbeatOptions, 'prefix'>> & { key: string };
  private readonly prefix: string;
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> | null = null;
  private again = false;
  private warnedAt = -Infinity;
  private isClosed = false;

  constructor(options: RegistryHeartbeatOptions) {
    const nodeId = options.entry().nodeId;
    this.prefix = options.prefix ?? MEDIA_REGISTRY_PREFIX;
    this.options = {
      heartbeatMs: MEDIA_REGISTRY_HEARTBEAT_MS,
      ttlMs: MEDIA_REGISTRY_TTL_MS,
      warn: (line) => log.warn(line),
      ...options,
      key: `${this.prefix}${nodeId}`,
    };
    // No offline queue: a beat while Redis is away fails at once and the next one tries again.
    this.redis = new Redis(options.url, { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    this.redis.on('error', (error: Error) => this.warn(error));
  }

  /** Writes the entry now and every heartbeat. */
  start(): void {
    this.redis.once('ready', () => this.changed());
    this.timer = setInterval(() => this.changed(), this.options.heartbeatMs);
    this.timer.unref();
  }

  /** The node's state changed: write the entry now (after a write under way, once for any number of calls). */
  changed(): void {
    if (this.isClosed) return;
    if (this.writing) {
      this.again = true;
      return;
    }
    this.writing = this.write().finally(() => {
      this.writing = null;
      if (this.again) {
        this.again = false;
        this.changed();
      }
    });
  }

  /**
   * Reads where classes' origins are now from the same registry, for this node's edge rooms whose origin was
   * lost (`self`: this node's signalling URL).
   */
  originFinder(self: string): FindOrigin {
    return originFinder(this.redis, { self, prefix: this.prefix, ttlMs: this.options.ttlMs });
  }

  /**
   * Whether another node runs (its entry is fresh in the registry): where one does, the classes of this node's
   * rooms can go on there when it stops. False when the registry cannot be read within `timeoutMs` (a stop
   * must not hang on a Redis that does not answer).
   */
  async othersRunning(timeoutMs = OTHERS_TIMEOUT_MS): Promise<boolean> {
    const self = this.options.entry().nodeId;
    const freshPttlMs = this.options.ttlMs - MEDIA_REGISTRY_STALE_MS;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const read = freshEntries(this.redis, this.prefix, freshPttlMs).then(
      (entries) => entries.some(({ entry }) => entry.nodeId !== self),
      (error: unknown) => {
        this.warn(error as Error);
        return false;
      },
    );
    try {
      return await Promise.race([read, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether the connection to Redis is up (tests). */
  get isReady(): boolean {
    return this.redis.status === 'ready';
  }

  /** Resolves when the write under way (if any) is done: tests. */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Removes the entry (no new tickets for this node) and disconnects. Idempotent. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    if (this.timer) clearInterval(this.timer);
    await this.settled();
    try {
      if (this.redis.status === 'ready') await this.redis.del(this.options.key);
    } catch (error) {
      this.warn(error as Error); // the entry expires by itself in a few seconds
    }
    this.redis.disconnect();
  }

  private async write(): Promise<void> {
    if (this.redis.status !== 'ready') return;
    const entry: MediaNodeEntry = { ...this.options.entry(), at: new Date().toISOString() };
    try {
      await this.redis.set(this.options.key, JSON.stringify(entry), 'PX', this.options.ttlMs);
    } catch (error) {
      this.warn(error as Error);
    }
  }

  private warn(error: Error): void {
    const now = performance.now();
    if (now - this.warnedAt < WARN_EVERY_MS) return;
    this.warnedAt = now;
    this.options.warn(`media: the node registry in Redis failed: ${error.message}`);
  }
}
