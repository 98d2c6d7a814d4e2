import type { ChatMessage, RoomRole } from '@sea/contract/chat';
import type { StompOutcome, StompSubscriber } from '../stomp/stomp-ports.ts';

/** Handles the SENDs to one destination (`/app/hello` for chat messages; each kind of room action its own). */
export interface SendHandler {
  send(subscriber: StompSubscriber, body: string): Promise<StompOutcome>;
}

/** Where the chat's parts report what went wrong without a caller to tell. */
export type RoomLog = (level: 'warn' | 'error', message: string, error?: unknown) => void;

/**
 * Who may use the chat: the user behind a token, and membership of a class (the classes domain's rule, which
 * an implementation may cache briefly). The broker itself never imports the database or the token verifier.
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

/** The chat's stored messages, as the broker writes and re-reads them. */
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

/** Decides whether a user may send now: a token bucket per user, in memory or shared through Redis. */
export interface SendLimiter {
  take(userId: string): boolean | Promise<boolean>;
}

/** Where memberships may have ended: one class (it was deleted), or any class (a user withdrew). */
export type MembershipScope = { classId: number } | 'all';

/**
 * Carries stored messages to the subscribers of every server instance. `publish` hands the message to the
 * local subscribers at once and to other instances as soon as it can; the instance's `deliver` callback may see
 * a message twice (after an outage of the transport) and must drop repeats by id. `announce` tells the other
 * instances (not this one) that memberships may have ended; best effort, the periodic check is the backstop.
 */
export interface FanOut {
  publish(message: ChatMessage): void;
  /** Like `publish`, for any other news of a room (questions, hands, moderation...). */
  publishEvent(event: RoomEvent): void;
  announce(scope: MembershipScope): void;
  close(): Promise<void>;
}

/** Tells a fan-out where messages go on this instance, and how to catch up after it lost messages. */
export interface FanOutTarget {
  deliver(message: ChatMessage): void;
  /** Hands a room event to this instance's subscribers of its destination; repeats are dropped by id. */
  deliverEvent(event: RoomEvent): void;
  /** The transport went away: messages published from now on may not arrive. */
  suspended(): void;
  /** The transport is back: catch up on what may have been missed while it was away. */
  resumed(): void;
  /** Another instance announced that memberships may have ended. */
  recheckMemberships(scope: MembershipScope): void;
}

/**
 * News of a room other than a chat message, for the subscribers of one destination. Each reader gets one body:
 * the teacher `body`; a student `student` when given (else `body`); the users named in `own` their own view
 * (their anonymous question with its author, their own raised hand). Room events are not re-read after a
 * fan-out outage: each carries a whole new state, and clients re-read the full state when they reconnect.
 */
export interface RoomEvent {
  destination: string;
  /** Unique per event (repeats through the fan-out are dropped by it); also the MESSAGE's message-id. */
  id: string;
  body: unknown;
  student?: unknown;
  own?: { userIds: string[]; body: unknown };
}

/** What the handler of a room action needs of the broker: roles in a room, and the fan-out of room events. */
export interface RoomContext {
  roleOf(roomId: number, userId: string): Promise<RoomRole | null>;
  publishEvent(event: RoomEvent): void;
}
