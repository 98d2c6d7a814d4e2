import { afterEach, beforeEach, vi } from 'vitest';
import type { ChatMessage } from '@sea/contract/chat';
import { RoomConnection, type RoomConnectionState } from '../lib/realtime/room-connection.ts';
import { chatMessage, fakeStompFactory } from './fake-stomp.ts';

export const CLASS_ID = 7;

/** The server side of a room connection's tests: the stored messages and the current token; tests change both. */
export type RoomWorld = { stored: ChatMessage[]; token: string };

/** A fresh world: messages 1 and 2 stored, 'token-1' current. */
export function roomWorld(): RoomWorld {
  return { stored: [chatMessage({ id: 1 }), chatMessage({ id: 2 })], token: 'token-1' };
}

/** What the history route would answer, from a list standing for the database. */
export function historyOf(stored: ChatMessage[]) {
  return vi.fn(async (_classId: number, after?: number) =>
    after === undefined ? stored.slice(-100) : stored.filter((m) => m.id > after),
  );
}

/** A connection of class 7 to the world over fake STOMP clients, with every state it went through. */
export function openRoomConnection(
  world: RoomWorld,
  extra: Partial<ConstructorParameters<typeof RoomConnection>[0]> = {},
) {
  const stomp = fakeStompFactory();
  const fetchHistory = historyOf(world.stored);
  const connection = new RoomConnection({
    classId: CLASS_ID,
    url: 'ws://127.0.0.1:1/ws',
    getToken: () => world.token,
    fetchHistory,
    createClient: stomp.factory,
    ...extra,
  });
  const states: RoomConnectionState[] = [connection.state];
  connection.on('stateChanged', (state) => states.push(state));
  return { connection, stomp, fetchHistory, states };
}

export const ids = (messages: readonly ChatMessage[]): number[] => messages.map((m) => m.id);

/**
 * The world of a test file, made afresh before each test (with fake timers, and the connection's warnings
 * muted); the same object throughout, so a file keeps it in a constant.
 */
export function roomWorldPerTest(): RoomWorld {
  const world = roomWorld();
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    Object.assign(world, roomWorld());
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
  return world;
}
