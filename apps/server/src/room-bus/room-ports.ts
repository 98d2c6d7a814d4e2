import type { RoomRole } from '@sea/contract/chat';
import type { StompOutcome, StompSubscriber } from '../stomp/stomp-ports.ts';

/** Handles the SENDs to one destination (`/app/hello` for chat messages; each room action its own). */
export interface SendHandler {
  send(subscriber: StompSubscriber, body: string): Promise<StompOutcome>;
}

/** Where the bus's parts and its modules report what went wrong without a caller to tell. */
export type RoomLog = (level: 'warn' | 'error', message: string, error?: unknown) => void;

/**
 * Who may use the room bus: the user behind a token, and membership of a class (the classes domain's rule,
 * which an implementation may cache briefly). The bus itself never imports the database or the token verifier.
 */
export interface RoomAccess {
  /** The user a bearer access token belongs to (an existing, not withdrawn user), or null. */
  authenticate(token: string): Promise<string | null>;
  /**
   * The user's role in the class: its teacher or an enrolled student while the class exists, null for anyone
   * else (briefly cached).
   */
  roleOf(classId: number, userId: string): Promise<RoomRole | null>;
  /** Which of `userIds` are members of the class right now, read afresh (and cached for `roleOf`). */
  stillMembers(classId: number, userIds: readonly string[]): Promise<Set<string>>;
  /** Drops cached membership answers: memberships just ended somewhere. */
  forgetMemberships(): void;
}

/** Decides whether a user may send now: a token bucket per user, in memory or shared through Redis. */
export interface SendLimiter {
  take(userId: string): boolean | Promise<boolean>;
}

/** Where memberships may have ended: one class (it was deleted), or any class (a user withdrew). */
export type MembershipScope = { classId: number } | 'all';

/**
 * Carries room events to the subscribers of every server instance. `publishEvent` hands the event to the local
 * subscribers at once and to other instances as soon as it can; the instance's `deliverEvent` may see an event
 * twice (after an outage of the transport) and drops repeats by id. `announce` tells the other instances (not
 * this one) that memberships may have ended; best effort, the periodic check is the backstop.
 */
export interface FanOut {
  publishEvent(event: RoomEvent): void;
  announce(scope: MembershipScope): void;
  close(): Promise<void>;
}

/** Tells a fan-out where events go on this instance, and when its transport went away and came back. */
export interface FanOutTarget {
  /** Hands a room event to this instance's subscribers of its destination; repeats are dropped by id. */
  deliverEvent(event: RoomEvent): void;
  /** The transport went away: events published from now on may not arrive. */
  suspended(): void;
  /** The transport is back: catch up on what may have been missed while it was away. */
  resumed(): void;
  /** Another instance announced that memberships may have ended. */
  recheckMemberships(scope: MembershipScope): void;
}

/** A module told of the fan-out's outages, to catch up on what it stored meanwhile (the chat's messages). */
export interface Outage {
  suspended(): void;
  resumed(): void;
}

/**
 * News of a room (a chat message, a question, a raised hand...), for the subscribers of one destination. Each
 * reader gets one body: the teacher `body`; a student `student` when given (else `body`); the users named in
 * `own` their own view (their anonymous question with its author, their own raised hand). The bus does not
 * re-read events after a fan-out outage: most carry a whole new state, and clients re-read the full state when
 * they reconnect; the chat re-reads its stored messages itself (see {@link Outage}).
 */
export interface RoomEvent {
  destination: string;
  /** Unique per event (repeats through the fan-out are dropped by it); also the MESSAGE's message-id. */
  id: string;
  body: unknown;
  student?: unknown;
  own?: { userIds: string[]; body: unknown };
  /**
   * A room state published at most a few times a second (a poll's counts, a question's votes, the reactions'
   * sums): each instance may hold it a moment to write it to a subscriber together with other news.
   */
  throttled?: true;
}

/** What the handler of a room action needs of the broker: roles in a room, and the fan-out of room events. */
export interface RoomContext {
  roleOf(roomId: number, userId: string): Promise<RoomRole | null>;
  publishEvent(event: RoomEvent): void;
}
