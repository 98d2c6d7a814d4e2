/* The state, events and options of a room connection (room-connection.ts). */
import type { ChatMessage, ChatRefusal } from '@sea/contract/chat';
import type { ModerationEvent } from '@sea/contract/classroom';
import type { StompFactory } from './stomp-client.ts';

/** Where a room connection stands; the panel shows it and enables sending only while `connected`. */
export type RoomConnectionState = 'connecting' | 'connected' | 'disconnected' | 'failed';

/** Events of a room connection, by name, with the value each carries. */
export type RoomConnectionEvents = {
  /** The state changed. */
  stateChanged: RoomConnectionState;
  /** The message list changed: history arrived, a message came in. Carries the whole list, oldest first. */
  messagesChanged: readonly ChatMessage[];
  /** The server refused one of this client's messages (too long, too fast...); the connection stays. */
  refused: ChatRefusal;
  /** The teacher deleted a message (it is already gone from `messages`), muted someone or set slow mode. */
  moderated: ModerationEvent;
  /**
   * The server confirmed the subscription of a watched destination on this connection:
   * state read from now on misses none of its news. Carries the destination.
   */
  watching: string;
};

export type RoomConnectionOptions = {
  classId: number;
  url: string;
  /** Read at every (re)connect, so a refreshed token is used. */
  getToken: () => string | null;
  /** The latest page of history, or with `after` the messages after that id. */
  fetchHistory: (classId: number, after?: number) => Promise<ChatMessage[]>;
  /**
   * Called once when the server refuses the token (it expired during a long class); true when a fresh token
   * is now stored, and the connection then tries again at once.
   */
  renewToken?: () => Promise<boolean>;
  createClient?: StompFactory;
  reconnectDelayMs?: number;
  heartbeatMs?: number;
  /** Wait before a failed history read is tried again; doubled for each further try. */
  historyRetryMs?: number;
};
