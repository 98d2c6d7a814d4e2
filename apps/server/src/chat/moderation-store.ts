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

/**
 * How long an instance reuses a room's mutes and slow mode for its students' messages. Each change is also
 * announced on the room's moderation topic, and every instance forgets the room when that reaches it
 * ({@link DatabaseModeration.forget}): this is the bound when the announcement is lost (the fan-out down).
 */
const ROOM_STATE_TTL_MS = 5_000;
/** Rooms held at most (a server has far fewer live at once); past it, all are read again. */
const MAX_ROOMS = 10_000;

/** A room's slow mode and its students' mutes (until when), as read at `read`. */
type RoomState = { slowSeconds: number; mutes: Map<string, number>; read: number };

/**
 * The room's moderation state in the database: mutes per student, slow mode per room. A student's message is
 * judged on the room's state held in memory (read once, then reused until a change is announced or
 * {@link ROOM_STATE_TTL_MS} passed): one database read per message had cost PGlite's in-process database 0.9
 * ms of the server's CPU each, a third of the chat's deliveries per second in bench/chat. Only while slow mode
 * is on does a message read the student's last one.
 */
export class DatabaseModeration implements ChatGate {
  readonly #db: Database;
  readonly #now: () => number;
  readonly #rooms = new Map<number, Promise<RoomState>>();

  constructor(db: Database, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  async admitMessage(classId: number, userId: string): Promise<GateRefusal | null> {
    const now = this.#now();
    const room = await this.#room(classId, now);
    const mutedUntil = room.mutes.get(userId);
    if (mutedUntil !== undefined && mutedUntil > now) return { type: 'muted', until: new Date(mutedUntil) };
    if (room.slowSeconds === 0) return null;
    const [last] = await this.#db
      .select({ at: chatMessages.createdAt })
      .from(chatMessages)
      .where(and(eq(chatMessages.classId, classId), eq(chatMessages.userId, userId)))
      .orderBy(desc(chatMessages.id))
      .limit(1);
    if (!last) return null;
    const waitMs = last.at.getTime() + room.slowSeconds * 1000 - now;
    return waitMs > 0 ? { type: 'slow', waitSeconds: Math.ceil(waitMs / 1000) } : null;
  }

  /** Drops what this instance holds of a room's moderation: it changed (here, or on another instance). */
  forget(classId: number): void {
    this.#rooms.delete(classId);
  }

  /** The room's state, read at most once per {@link ROOM_STATE_TTL_MS} (concurrent askers share the read). */
  #room(classId: number, now: number): Promise<RoomState> {
    const held = this.#rooms.get(classId);
    if (held)
      return held.then((room) => (now - room.read < ROOM_STATE_TTL_MS ? room : this.#read(classId, now)));
    return this.#read(classId, now);
  }

  #read(classId: number, now: number): Promise<RoomState> {
    if (this.#rooms.size >= MAX_ROOMS) this.#rooms.clear();
    const reading = Promise.all([
      this.#db
        .select({ seconds: roomSettings.slowModeSeconds })
        .from(roomSettings)
        .where(eq(roomSettings.classId, classId)),
      this.#db
        .select({ userId: chatMutes.userId, until: chatMutes.until })
        .from(chatMutes)
        .where(and(eq(chatMutes.classId, classId), gt(chatMutes.until, new Date(now)))),
    ]).then(([settings, mutes]) => ({
      slowSeconds: settings[0]?.seconds ?? 0,
      mutes: new Map(mutes.map((mute) => [mute.userId, mute.until.getTime()])),
      read: now,
    }));
    this.#rooms.set(classId, reading);
    // A failed read is not kept: the next message reads again.
    reading.catch(() => {
      if (this.#rooms.get(classId) === reading) this.#rooms.delete(classId);
    });
    return reading;
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

  /** Every mute still running in the room, soonest end first: what the teacher is told on subscribing. */
  async runningMutes(classId: number): Promise<{ userId: string; until: Date }[]> {
    return this.#db
      .select({ userId: chatMutes.userId, until: chatMutes.until })
      .from(chatMutes)
      .where(and(eq(chatMutes.classId, classId), gt(chatMutes.until, new Date(this.#now()))))
      .orderBy(chatMutes.until);
  }

  /** Mutes a student for `minutes` from now (0 lifts the mute); answers the end, or null when lifted. */
  async mute(classId: number, userId: string, minutes: number): Promise<Date | null> {
    if (minutes === 0) {
      await this.#db
        .delete(chatMutes)
        .where(and(eq(chatMutes.classId, classId), eq(chatMutes.userId, userId)));
      this.forget(classId);
      return null;
    }
    const until = new Date(this.#now() + minutes * 60_000);
    await this.#db
      .insert(chatMutes)
      .values({ classId, userId, until })
      .onConflictDoUpdate({ target: [chatMutes.classId, chatMutes.userId], set: { until } });
    this.forget(classId);
    return until;
  }

  /** Sets the room's slow mode (0: off). */
  async setSlowMode(classId: number, seconds: number): Promise<void> {
    await this.#db
      .insert(roomSettings)
      .values({ classId, slowModeSeconds: seconds })
      .onConflictDoUpdate({ target: roomSettings.classId, set: { slowModeSeconds: seconds } });
    this.forget(classId);
  }
}

/** postgres.js answers a sub-select's timestamp as text, PGlite as a Date. */
function toDate(value: Date | string | null): Date | null {
  if (value === null) return null;
  return value instanceof Date ? value : new Date(value);
}
