import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { chatMessages, chatMutes, roomSettings } from '../db/schema.ts';

/** Why a student may not write now: muted until a time, or slow mode asks to wait some seconds. */
export type GateRefusal = { type: 'muted'; until: Date } | { type: 'slow'; waitSeconds: number };

/**
 * Mutes and slow mode, as the chat's SEND path asks about them: in the database, so every API instance reads the
 * same state. The teacher is never asked about.
 */
export interface ChatGate {
  /** Whether a student may send a chat message now (slow mode counts their last stored message). */
  admitMessage(classId: number, userId: string): Promise<GateRefusal | null>;
  /** Until when a student is muted in the room, or null. */
  mutedUntil(classId: number, userId: string): Promise<Date | null>;
}

/** The room's moderation state in the database: mutes per student, slow mode per room. */
export class DatabaseModeration implements ChatGate {
  readonly #db: Database;
  readonly #now: () => number;

  constructor(db: Database, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  async admitMessage(classId: number, userId: string): Promise<GateRefusal | null> {
    const now = new Date(this.#now());
    // One round trip: the mute, the slow mode and the student's last message, each an indexed lookup.
    const [row] = await this.#db
      .select({
        mutedUntil: sql<Date | string | null>`(select ${chatMutes.until} from ${chatMutes}
          where ${chatMutes.classId} = ${classId} and ${chatMutes.userId} = ${userId})`,
        slowSeconds: sql<number | null>`(select ${roomSettings.slowModeSeconds} from ${roomSettings}
          where ${roomSettings.classId} = ${classId})`,
        lastAt: sql<Date | string | null>`(select ${chatMessages.createdAt} from ${chatMessages}
          where ${chatMessages.classId} = ${classId} and ${chatMessages.userId} = ${userId}
          order by ${chatMessages.id} desc limit 1)`,
      })
      .from(sql`(select 1) as one`);
    const mutedUntil = toDate(row?.mutedUntil ?? null);
    if (mutedUntil !== null && mutedUntil > now) return { type: 'muted', until: mutedUntil };
    const slow = Number(row?.slowSeconds ?? 0);
    const lastAt = toDate(row?.lastAt ?? null);
    if (slow > 0 && lastAt !== null) {
      const waitMs = lastAt.getTime() + slow * 1000 - now.getTime();
      if (waitMs > 0) return { type: 'slow', waitSeconds: Math.ceil(waitMs / 1000) };
    }
    return null;
  }

  async mutedUntil(classId: number, userId: string): Promise<Date | null> {
    const [row] = await this.#db
      .select({ until: chatMutes.until })
      .from(chatMutes)
      .where(
        and(
          eq(chatMutes.classId, classId),
          eq(chatMutes.userId, userId),
          gt(chatMutes.until, new Date(this.#now())),
        ),
      )
      .orderBy(desc(chatMutes.until))
      .limit(1);
    return row?.until ?? null;
  }

  /**
   * The room's slow mode (0: off) and, for a student, until when they are muted (null: not muted): what a
   * subscriber is told first. One round trip.
   */
  async stateOf(
    classId: number,
    userId: string | null,
  ): Promise<{ slowSeconds: number; mutedUntil: Date | null }> {
    const now = new Date(this.#now());
    const [row] = await this.#db
      .select({
        slowSeconds: sql<number | null>`(select ${roomSettings.slowModeSeconds} from ${roomSettings}
          where ${roomSettings.classId} = ${classId})`,
        mutedUntil: sql<Date | string | null>`(select ${chatMutes.until} from ${chatMutes}
          where ${chatMutes.classId} = ${classId} and ${chatMutes.userId} = ${userId ?? ''})`,
      })
      .from(sql`(select 1) as one`);
    const mutedUntil = userId === null ? null : toDate(row?.mutedUntil ?? null);
    return {
      slowSeconds: Number(row?.slowSeconds ?? 0),
      mutedUntil: mutedUntil !== null && mutedUntil > now ? mutedUntil : null,
    };
  }

  /** Mutes a student for `minutes` from now (0 lifts the mute); answers the end, or null when lifted. */
  async mute(classId: number, userId: string, minutes: number): Promise<Date | null> {
    if (minutes === 0) {
      await this.#db
        .delete(chatMutes)
        .where(and(eq(chatMutes.classId, classId), eq(chatMutes.userId, userId)));
      return null;
    }
    const until = new Date(this.#now() + minutes * 60_000);
    await this.#db
      .insert(chatMutes)
      .values({ classId, userId, until })
      .onConflictDoUpdate({ target: [chatMutes.classId, chatMutes.userId], set: { until } });
    return until;
  }

  /** Sets the room's slow mode (0: off). */
  async setSlowMode(classId: number, seconds: number): Promise<void> {
    await this.#db
      .insert(roomSettings)
      .values({ classId, slowModeSeconds: seconds })
      .onConflictDoUpdate({ target: roomSettings.classId, set: { slowModeSeconds: seconds } });
  }
}

/** postgres.js answers a sub-select's timestamp as text, PGlite as a Date. */
function toDate(value: Date | string | null): Date | null {
  if (value === null) return null;
  return value instanceof Date ? value : new Date(value);
}
