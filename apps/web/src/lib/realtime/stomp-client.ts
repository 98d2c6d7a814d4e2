import { Client, type IMessage } from '@stomp/stompjs';
import { CHAT_RECONNECT_HEADER } from '@sea/contract/chat';

/** The part of a STOMP client the connection drives; tests inject a fake one. */
export type StompLike = {
  activate(): void;
  deactivate(): Promise<void>;
  /**
   * Subscribes; resolves on the server's RECEIPT, that is once the subscription is in effect (the server
   * sends it only then). Never resolves if the connection is lost first.
   */
  subscribe(destination: string, onBody: (body: string) => void): Promise<void>;
  publish(destination: string, body: string): void;
};

/** What a STOMP client factory is given: where to connect, with which token, and whom to tell what. */
export type StompClientConfig = {
  url: string;
  token: string | null;
  heartbeatMs: number;
  onConnected: () => void;
  /**
   * The server answered an ERROR frame; it closes the socket next. `reconnectWithinMs` is the value of its
   * {@link CHAT_RECONNECT_HEADER} (the server is stopping: reconnect within that), null for a refusal (token,
   * membership).
   */
  onRefused: (message: string, reconnectWithinMs: number | null) => void;
  onSocketClosed: () => void;
};

export type StompFactory = (config: StompClientConfig) => StompLike;

let receiptCount = 0;

/** The real client: @stomp/stompjs, with its own reconnecting turned off (this class reconnects). */
export const createStompClient: StompFactory = (config) => {
  const client = new Client({
    brokerURL: config.url,
    connectHeaders: config.token === null ? {} : { Authorization: `Bearer ${config.token}` },
    heartbeatIncoming: config.heartbeatMs,
    heartbeatOutgoing: config.heartbeatMs,
    reconnectDelay: 0,
    onConnect: () => config.onConnected(),
    onStompError: (frame) =>
      config.onRefused(
        frame.headers.message ?? frame.body,
        reconnectWithin(frame.headers[CHAT_RECONNECT_HEADER]),
      ),
    onWebSocketClose: () => config.onSocketClosed(),
  });
  return {
    activate: () => client.activate(),
    deactivate: () => client.deactivate(),
    subscribe: (destination, onBody) =>
      new Promise<void>((resolve) => {
        const receipt = `chat-subscribed-${++receiptCount}`;
        client.watchForReceipt(receipt, () => resolve());
        client.subscribe(destination, (message: IMessage) => onBody(message.body), { receipt });
      }),
    publish: (destination, body) => client.publish({ destination, body }),
  };
};

/** A stopping server's reconnect hint: a number of milliseconds, else null (the ERROR is a refusal). */
function reconnectWithin(header: string | undefined): number | null {
  if (header === undefined) return null;
  const ms = Number(header);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

/** A STOMP body's JSON, or null (logged) for one that is not JSON. */
export function parseBody<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    console.warn('chat: ignored a message that is not JSON');
    return null;
  }
}
