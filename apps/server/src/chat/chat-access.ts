import { relationsTo } from '../classes/class-role.ts';
import type { RoomRole } from '@sea/contract/chat';
import type { Database } from '../db/database.ts';
import { findActiveUser } from '../plugins/auth.ts';
import type { RoomAccess } from '../room-bus/room-ports.ts';

export interface ChatAccessOptions {
  db: Database;
  /** The user id of a valid access token; throws (or answers null) for anything else. */
  verifyAccess: (token: string) => Promise<{ sub: string }>;
  /** How long a membership answer is reused: a SEND must not cost a database round trip each time. */
  membershipTtlMs?: number;
  /**
   * How long after that a member's answer is still used while it is read again (a non-member's never is): a
   * member's SEND then never waits for the database (see {@link DatabaseChatAccess.roleOf}).
   */
  membershipStaleMs?: number;
  now?: () => number;
}

const MAX_CACHE_ENTRIES = 10_000;
/** As long as the room bus's periodic check of every subscription (membership-watch.ts). */
const DEFAULT_STALE_MS = 60_000;
/** The most members one batched lookup asks the database about (one query each, see {@link roleOf}). */
const MAX_BATCH = 1_000;

/** Members of one class whose role is being looked up together, and when the answer is in the cache. */
type Batch = { userIds: Set<string>; done: Promise<void> };

/**
 * Who may use the chat (and so the room bus, app.ts hands it this), from the database: the user of a token
 * (signed up, not withdrawn), and membership of a class as the classes domain decides it (`relationsTo`),
 * briefly cached.
 */
export class DatabaseChatAccess implements RoomAccess {
  readonly #db: Database;
  readonly #verifyAccess: ChatAccessOptions['verifyAccess'];
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #staleMs: number;
  readonly #members = new Map<string, { role: RoomRole | null; expires: number; refreshing?: boolean }>();
  /** Per class, the batch of lookups still gathering (see {@link roleOf}). */
  readonly #gathering = new Map<number, Batch>();

  constructor(options: ChatAccessOptions) {
    this.#db = options.db;
    this.#verifyAccess = options.verifyAccess;
    this.#ttlMs = options.membershipTtlMs ?? 5_000;
    this.#staleMs = options.membershipStaleMs ?? DEFAULT_STALE_MS;
    this.#now = options.now ?? Date.now;
  }

  async authenticate(token: string): Promise<string | null> {
    let sub: string;
    try {
      ({ sub } = await this.#verifyAccess(token));
    } catch {
      return null;
    }
    return (await findActiveUser(this.#db, sub)) ? sub : null;
  }

  /**
   * The user's role in the class, from the cache or the database. A member's answer that expired (up to
   * `membershipStaleMs` ago) is still used while it is read again in the background: when a thousand members
   * vote at once, their memberships and a question's would otherwise wait for one large query in a busy
   * database (bench/classroom: the question's p99 up to 0.16 s in that wait). An ended membership that is
   * announced clears the cache at once (`forgetMemberships`); one that is not lets the first SEND (or
   * SUBSCRIBE) after the expiry through, not the next. Lookups that miss in the same turn of the event loop
   * share one query per class: a thousand queries would otherwise queue in the pool ahead of a question on its
   * way to the teacher.
   */
  async roleOf(classId: number, userId: string): Promise<RoomRole | null> {
    const key = `${classId}:${userId}`;
    const hit = this.#members.get(key);
    const now = this.#now();
    if (hit && hit.expires > now) return hit.role;
    if (hit && hit.role !== null && hit.expires + this.#staleMs > now) {
      if (!hit.refreshing) {
        hit.refreshing = true;
        // A failure leaves the answer as it was, to be read again at the next SEND.
        this.#lookUp(classId, userId).catch(() => {
          hit.refreshing = false;
        });
      }
      return hit.role;
    }
    await this.#lookUp(classId, userId);
    return this.#members.get(key)?.role ?? null;
  }

  #lookUp(classId: number, userId: string): Promise<void> {
    let batch = this.#gathering.get(classId);
    if (!batch || batch.userIds.size >= MAX_BATCH) {
      const userIds = new Set<string>();
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        if (this.#gathering.get(classId) === batch) this.#gathering.delete(classId);
        await this.stillMembers(classId, [...userIds]);
      });
      batch = { userIds, done };
      this.#gathering.set(classId, batch);
    }
    batch.userIds.add(userId);
    return batch.done;
  }

  async stillMembers(classId: number, userIds: readonly string[]): Promise<Set<string>> {
    const members = new Set<string>();
    if (userIds.length === 0) return members;
    const relations = await relationsTo(this.#db, classId, userIds);
    const roles = new Map<string, RoomRole>();
    for (const [userId, relation] of relations ?? []) {
      if (relation === 'none') continue;
      members.add(userId);
      roles.set(userId, relation);
    }
    const expires = this.#now() + this.#ttlMs;
    // A crude bound: the cache only saves round trips, so forgetting everything at once is harmless.
    if (this.#members.size + userIds.length > MAX_CACHE_ENTRIES) this.#members.clear();
    for (const userId of userIds) {
      this.#members.set(`${classId}:${userId}`, { role: roles.get(userId) ?? null, expires });
    }
    return members;
  }

  forgetMemberships(): void {
    this.#members.clear();
  }
}
