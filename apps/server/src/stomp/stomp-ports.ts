import type { ChatRefusalCode } from '@sea/contract/chat';

/** What the server behind the sessions sees of one STOMP session. */
export interface StompSubscriber {
  readonly userId: string;
  readonly version: string;
  readonly open: boolean;
  /** Sends an encoded MESSAGE frame; the session protects itself against a subscriber that cannot keep up. */
  sendBytes(bytes: Uint8Array): void;
  /** Ends the session with an ERROR frame carrying `message` (a failure, or a membership that ended). */
  abort(message: string): void;
}

/** What became of a SUBSCRIBE or SEND. `fatal` ends the session with an ERROR frame. */
export type StompOutcome =
  | { type: 'ok' }
  | { type: 'refused'; code: ChatRefusalCode; message: string }
  | { type: 'fatal'; message: string };

/** Where a session hands its frames, one at a time: the broker of the server's topics and destinations. */
export interface StompBroker {
  /** Identifies the user of a CONNECT's bearer token; null refuses the connection. */
  authenticate(token: string): Promise<string | null>;
  subscribe(subscriber: StompSubscriber, id: string, destination: string): Promise<StompOutcome>;
  hasSubscription(subscriber: StompSubscriber, id: string): boolean;
  unsubscribe(subscriber: StompSubscriber, id: string): void;
  send(subscriber: StompSubscriber, destination: string, body: string): Promise<StompOutcome>;
  /** The session closed: its subscriptions go. */
  disconnected(subscriber: StompSubscriber): void;
}

/** What the sessions and the delivery tell the metrics as it happens. */
export type StompMeter = {
  /** A SEND was accepted (stored and published to the room). */
  messageAccepted(): void;
  /** MESSAGE frames handed to subscribers' sockets. */
  delivered(frames: number): void;
  /** A frame was refused: a SEND with the refusal's code, or any frame answered with ERROR (`error`). */
  refused(reason: string): void;
};

/** The meter of a session or broker built without metrics (unit tests, benchmarks). */
export const NO_STOMP_METER: StompMeter = {
  messageAccepted: () => undefined,
  delivered: () => undefined,
  refused: () => undefined,
};
