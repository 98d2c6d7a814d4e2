import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { ChatMessage } from '@sea/contract/chat';
import type { Database } from '../db/database.ts';
import { chatMessages, classes, enrolments, users } from '../db/schema.ts';
import type { ChatStore } from './chat-ports.ts';

export interface ChatStoreOptions {
  db: Database;
  /** The user id of a valid access token; throws (or answers null) for anything else. */
  verifyAccess: (token: string) => Promise<{ sub: string }>;
  /** The browser address of a stored avatar key. */
  imageUrl: (key: string) => string;
  /** How long a membership answer is reused: a SEND must not cost a database round trip each time. */
  membershipTtlMs?: number;
  now?: () => number;
}

export interface HistoryQuery {
  before?: number | undefined;
  after?: number | undefined;
  size: number;
}

interface Cached<T> {
  value: T;
  expires: number;
}

const MAX_CACHE_ENTRIES = 10_000;

/** The chat's database side: identity, membership (briefly cached), storing and reading messages. */
export class DatabaseChatStore implements ChatStore {
  readonly #db: Database;
  readonly #verifyAccess: ChatStoreOptions['verifyAccess'];
  readonly #imageUrl: ChatStoreOptions['imageUrl'];
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #members = new Map<string, Cached<boolean>>();
  readonly #writers = new Map<string, Cached<{ nickname: string; profileImage: string | null } | null>>();

  constructor(options: ChatStoreOptions) {
    this.#db = options.db;
    this.#verifyAccess = options.verifyAccess;
    this.#imageUrl = options.imageUrl;
    this.#ttlMs = options.membershipTtlMs ?? 5_000;
    this.#now = options.now ?? Date.now;
  }

  async authenticate(token: string): Promise<string | null> {
    let sub: string;
    try {
      ({ sub } = await this.#verifyAccess(token));
    } catch {
      return null;
    }
    return (await this.#writer(sub, true)) ? sub : null;
  }

  async isMember(classId: number, userId: string): Promise<boolean> {
    const key = `${classId}:${userId}`;
    const hit = this.#members.get(key);
    if (hit && hit.expires > this.#now()) return hit.value;
    const [row] = await this.#db
      .select({ id: classes.id })
      .from(classes)
      .leftJoin(enrolments, and(eq(enrolments.classId, classes.id), eq(enrolments.userId, userId)))
      .where(
        and(
          eq(classes.id, classId),
          isNull(classes.deletedAt),
          or(eq(classes.teacherId, userId), isNotNull(enrolments.id)),
        ),
      )
      .limit(1);
    remember(this.#members, key, row !== undefined, this.#now() + this.#ttlMs);
    return row !== undefined;
  }

  async stillMembers(classId: number, userIds: readonly string[]): Promise<Set<string>> {
    const members = new Set<string>();
    if (userIds.length === 0) return members;
    const [found] = await this.#db
      .select({ teacherId: classes.teacherId })
      .from(classes)
      .where(and(eq(classes.id, classId), isNull(classes.deletedAt)))
      .limit(1);
    if (found) {
      if (userIds.includes(found.teacherId)) members.add(found.teacherId);
      const enrolled = await this.#db
        .select({ userId: enrolments.userId })
        .from(enrolments)
        .where(and(eq(enrolments.classId, classId), inArray(enrolments.userId, [...userIds])));
      for (const { userId } of enrolled) members.add(userId);
    }
    const expires = this.#now() + this.#ttlMs;
    for (const userId of userIds)
      remember(this.#members, `${classId}:${userId}`, members.has(userId), expires);
    return members;
  }

  forgetMemberships(): void {
    this.#members.clear();
  }

  /** True when the class exists (the history route answers 404 otherwise). */
  async classExists(classId: number): Promise<boolean> {
    const [row] = await this.#db
      .select({ id: classes.id })
      .from(classes)
      .where(and(eq(classes.id, classId), isNull(classes.deletedAt)))
      .limit(1);
    return row !== undefined;
  }

  async save(input: { classId: number; userId: string; content: string }): Promise<ChatMessage> {
    const [row] = await this.#db
      .insert(chatMessages)
      .values({ classId: input.classId, userId: input.userId, content: input.content })
      .returning();
    if (!row) throw new Error('insert returned no row');
    const writer = await this.#writer(input.userId, false);
    return this.#toMessage({
      ...row,
      nickname: writer?.nickname ?? null,
      profileImage: writer?.profileImage ?? null,
    });
  }

  async lastIdBefore(time: Date): Promise<number> {
    // Read backwards along the primary key: only the messages stored since `time` are passed over.
    const [row] = await this.#db
      .select({ id: chatMessages.id })
      .from(chatMessages)
      .where(lt(chatMessages.createdAt, time))
      .orderBy(desc(chatMessages.id))
      .limit(1);
    return Number(row?.id ?? 0);
  }

  listAfter(classId: number, afterId: number, size: number): Promise<ChatMessage[]> {
    return this.history(classId, { after: afterId, size });
  }

  /** A page of a class's history, oldest first (api.md 4.2). */
  async history(classId: number, query: HistoryQuery): Promise<ChatMessage[]> {
    const conditions: SQL[] = [eq(chatMessages.classId, classId)];
    if (query.before !== undefined) conditions.push(lt(chatMessages.id, query.before));
    if (query.after !== undefined) conditions.push(gt(chatMessages.id, query.after));
    // `after` reads forward from a point (catching up); otherwise the newest page, turned oldest first.
    const forward = query.after !== undefined;
    const rows = await this.#db
      .select({
        id: chatMessages.id,
        classId: chatMessages.classId,
        userId: chatMessages.userId,
        content: chatMessages.content,
        createdAt: chatMessages.createdAt,
        nickname: users.nickname,
        profileImage: users.profileImage,
      })
      .from(chatMessages)
      .leftJoin(users, and(eq(users.id, chatMessages.userId), isNull(users.deletedAt)))
      .where(and(...conditions))
      .orderBy(forward ? asc(chatMessages.id) : desc(chatMessages.id))
      .limit(query.size);
    if (!forward) rows.reverse();
    return rows.map((row) => this.#toMessage(row));
  }

  #toMessage(row: {
    id: number;
    classId: number;
    userId: string | null;
    content: string;
    createdAt: Date;
    nickname: string | null;
    profileImage: string | null;
  }): ChatMessage {
    return {
      id: Number(row.id),
      roomId: row.classId,
      content: row.content,
      writer: row.nickname,
      writer_id: row.userId,
      profile_image_path: row.profileImage === null ? null : this.#imageUrl(row.profileImage),
      createdDate: row.createdAt.toISOString(),
    };
  }

  /** The writer's public fields, cached briefly; `fresh` skips the cache (authentication must see withdrawals). */
  async #writer(
    userId: string,
    fresh: boolean,
  ): Promise<{ nickname: string; profileImage: string | null } | null> {
    const hit = this.#writers.get(userId);
    if (!fresh && hit && hit.expires > this.#now()) return hit.value;
    const [row] = await this.#db
      .select({ nickname: users.nickname, profileImage: users.profileImage })
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .limit(1);
    const value = row ?? null;
    remember(this.#writers, userId, value, this.#now() + this.#ttlMs);
    return value;
  }
}

function remember<T>(cache: Map<string, Cached<T>>, key: string, value: T, expires: number): void {
  // A crude bound: the cache only saves round trips, so forgetting everything at once is harmless.
  if (cache.size >= MAX_CACHE_ENTRIES) cache.clear();
  cache.set(key, { value, expires });
}
