import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { ChatMessage, ChatRefusal } from '@sea/contract/chat';
import { getAccessToken } from '../auth-tokens.ts';
import { fetchChatHistory } from './fetch-chat-history.ts';
import { renewAccessToken } from './renew-access-token.ts';
import { RoomConnection, type RoomConnectionState } from './room-connection.ts';
import { roomSocketUrl } from './room-socket-url.ts';

/** Builds the room connection of a class; the panel takes another one in tests. */
export type CreateRoomConnection = (classId: number) => RoomConnection;

export const createRoomConnection: CreateRoomConnection = (classId) =>
  new RoomConnection({
    classId,
    url: roomSocketUrl(),
    getToken: getAccessToken,
    fetchHistory: fetchChatHistory,
    renewToken: renewAccessToken,
  });

const NO_MESSAGES: readonly ChatMessage[] = [];
const noop = (): void => undefined;

export type RoomView = {
  state: RoomConnectionState;
  messages: readonly ChatMessage[];
  /** The server's last refusal of one of my messages, until the next message is sent. */
  refusal: ChatRefusal | null;
  send: (content: string) => boolean;
  /** The open connection (null before the first render's effect): the questions and hands use it too. */
  connection: RoomConnection | null;
};

/**
 * Opens the room connection of a class while the component is mounted (closed when the page is left) and
 * re-renders on its events.
 */
export function useRoomConnection(
  classId: number,
  create: CreateRoomConnection = createRoomConnection,
): RoomView {
  // The first factory is kept: a caller passing a new arrow function on every render must not reconnect.
  const [factory] = useState(() => create);
  const [connection, setConnection] = useState<RoomConnection | null>(null);
  const [refusal, setRefusal] = useState<ChatRefusal | null>(null);

  useEffect(() => {
    const opened = factory(classId);
    setConnection(opened);
    const stop = opened.on('refused', setRefusal);
    return () => {
      stop();
      opened.close();
    };
  }, [classId, factory]);

  const subscribeState = useCallback(
    (notify: () => void) => (connection ? connection.on('stateChanged', notify) : noop),
    [connection],
  );
  const subscribeMessages = useCallback(
    (notify: () => void) => (connection ? connection.on('messagesChanged', notify) : noop),
    [connection],
  );
  const state = useSyncExternalStore(subscribeState, () => connection?.state ?? 'connecting');
  const messages = useSyncExternalStore(subscribeMessages, () => connection?.messages ?? NO_MESSAGES);

  const send = useCallback(
    (content: string) => {
      const sent = connection?.send(content) ?? false;
      if (sent) setRefusal(null);
      return sent;
    },
    [connection],
  );
  return { state, messages, refusal, send, connection };
}
