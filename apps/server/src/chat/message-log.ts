import { and, asc, desc, eq, gt, isNull, lt, type SQL } from 'drizzle-orm';
import type { ChatMessage, RoomRole } from '@sea/contract/chat';
import type { Database } from '../db/database.ts';
import { chatMessages, classes, users } from '../db/schema.ts';

/** The chat's stored messages, as the chat writes and re-reads them. */
export interface MessageLog {
  /** Stores a message and returns it as broadcast (id, writer, createdDate filled in). */
  save(input: { classId: number; userId: string; role: RoomRole; content: string }): Promise<ChatMessage>;
  /** The highest id of the messages stored before `time` (0 when none). */
  lastIdBefore(time: Date): Promise<number>;
  /** Messages of a class with an id above `afterId`, oldest first, at most `size`. */
  listAfter(classId: number, afterId: number, size: number): Promise<ChatMessage[]>;
  /** Deletes a message of a class for good; false when the class has no message with that id. */
  remove(classId: number, messageId: number): Promise<boolean>;
}

export interface MessageLogOptions {
  db: Database;
  /** The browser address of a stored avatar key. */
  imageUrl: (key: string) => string;
  /** How long a writer's nickname and picture are reused: a SEND must not cost an extra round trip each time. */
  writerTtlMs?: number;
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

type Writer = { nickname: string; profileImage: string | null };

const MAX_CACHE_ENTRIES = 10_000;

/** The chat's stored messages: storing one (with its writer, briefly cached) and reading pages of a class's. */
export class DatabaseMessageLog implements MessageLog {
  readonly #db: Database;
  readonly #imageUrl: MessageLogOptions['imageUrl'];
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #writers = new Map<string, Cached<Writer | null>>();

  constructor(options: MessageLogOptions) {
    this.#db = options.db;
    this.#imageUrl = options.imageUrl;
    this.#ttlMs = options.writerTtlMs ?? 5_000;
    this.#now = options.now ?? Date.now;
  }

  async save(input: {
    classId: number;
    userId: string;
    role: RoomRole;
    content: string;
  }): Promise<ChatMessage> {
    const [row] = await this.#db
      .insert(chatMessages)
      .values({ classId: input.classId, userId: input.userId, content: input.content })
      .returning();
    if (!row) throw new Error('insert returned no row');
    const writer = await this.#writer(input.userId);
    return this.#toMessage({
      ...row,
      nickname: writer?.nickname ?? null,
      profileImage: writer?.profileImage ?? null,
      teacherId: input.role === 'teacher' ? input.userId : null,
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

  /** A page of a class's history, oldest first (the original API spec 4.2). */
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
        teacherId: classes.teacherId,
      })
      .from(chatMessages)
      .innerJoin(classes, eq(classes.id, chatMessages.classId))
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
    /** The class's teacher: the role of the writer is `teacher` when it is them. */
    teacherId: string | null;
  }): ChatMessage {
    return {
      id: Number(row.id),
      roomId: row.classId,
      content: row.content,
      writer: row.nickname,
      writer_id: row.userId,
      profile_image_path: row.profileImage === null ? null : this.#imageUrl(row.profileImage),
      role: row.userId !== null && row.userId === row.teacherId ? 'teacher' : 'student',
      createdDate: row.createdAt.toISOString(),
    };
  }

  /** Deletes a message of a class for good; false when there was none with that id in the class. */
  async remove(classId: number, messageId: number): Promise<boolean> {
    const rows = await this.#db
      .delete(chatMessages)
      .where(and(eq(chatMessages.classId, classId), eq(chatMessages.id, messageId)))
      .returning({ id: chatMessages.id });
    return rows.length > 0;
  }

  /** The writer's public fields, cached briefly (null: withdrawn meanwhile). */
  async #writer(userId: string): Promise<Writer | null> {
    const hit = this.#writers.get(userId);
    if (hit && hit.expires > this.#now()) return hit.value;
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
