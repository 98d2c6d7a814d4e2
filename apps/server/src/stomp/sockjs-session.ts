import type { SocketHandler } from '../plugins/websocket.ts';
import { ANOTHER_CONNECTION, GO_AWAY, HEARTBEAT_FRAME, messageFrame, OPEN_FRAME } from './sockjs-frames.ts';
import type { StompTransport } from './stomp-session-options.ts';

/** One HTTP response that carries frames to the client (an xhr-streaming, xhr-polling or eventsource one). */
export interface SockJsReceiver {
  /** Writes one frame in the transport's own framing. */
  write(frame: string): void;
  /** True once the response must end: a polling one after its frame, a streaming one past its byte limit. */
  readonly full: boolean;
  /** Bytes written to the response that its socket has not sent yet. */
  bufferedBytes(): number;
  end(): void;
}

export interface SockJsSessionOptions {
  /** Idle time after which an attached response gets a heartbeat frame. */
  heartbeatMs: number;
  /** How long the session waits for the client's next response before it counts as gone. */
  disconnectMs: number;
  /** The session opened: what to do with the messages it receives. */
  opened: (transport: StompTransport) => SocketHandler;
  /** The session is over and forgotten (closed, timed out or dropped). */
  gone: () => void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A SockJS session over HTTP: frames to the client wait here until one of its responses is attached (at most
 * one at a time), and messages it posts are handed on. To the sessions it is a STOMP transport like a WebSocket:
 * bytes in and out, queued bytes counted (so a slow reader is found the same way), close and terminate.
 */
export class SockJsSession implements StompTransport {
  readonly #options: SockJsSessionOptions;
  #state: 'new' | 'open' | 'closing' | 'closed' = 'new';
  #handler: SocketHandler | null = null;
  #receiver: SockJsReceiver | null = null;
  #pending: string[] = [];
  #pendingBytes = 0;
  #heartbeat: ReturnType<typeof setTimeout> | null = null;
  #disconnect: ReturnType<typeof setTimeout> | null = null;

  constructor(options: SockJsSessionOptions) {
    this.#options = options;
    this.#waitForReceiver();
  }

  /** A response of the client arrived: it carries what is pending (the open frame first, on a new session). */
  attach(receiver: SockJsReceiver): void {
    if (this.#receiver !== null) {
      receiver.write(ANOTHER_CONNECTION);
      receiver.end();
      return;
    }
    if (this.#state === 'closed') return receiver.end();
    this.#clearTimers();
    if (this.#state === 'closing') {
      this.#flushTo(receiver);
      receiver.write(GO_AWAY);
      receiver.end();
      this.#waitForReceiver();
      return;
    }
    this.#receiver = receiver;
    if (this.#state === 'new') {
      this.#state = 'open';
      receiver.write(OPEN_FRAME);
      this.#handler = this.#options.opened(this);
    }
    this.#flush();
  }

  /** The response ended (the client went away, or the session ended it). */
  detached(receiver: SockJsReceiver): void {
    if (this.#receiver !== receiver) return;
    this.#receiver = null;
    this.#clearTimers();
    this.#waitForReceiver();
  }

  /** Messages the client posted; false when the session does not take them (not open). */
  receive(messages: readonly string[]): boolean {
    if (this.#state !== 'open') return false;
    for (const message of messages) {
      if (this.#state !== 'open') break;
      this.#handler?.receive(encoder.encode(message));
    }
    return true;
  }

  send(bytes: Uint8Array): void {
    if (this.#state !== 'open') return;
    const text = decoder.decode(bytes);
    this.#pending.push(text);
    this.#pendingBytes += bytes.byteLength;
    this.#flush();
  }

  bufferedBytes(): number {
    return this.#pendingBytes + (this.#receiver?.bufferedBytes() ?? 0);
  }

  /** Ends the session with a close frame; a client whose response comes later still gets it. */
  close(): void {
    if (this.#state !== 'open') return;
    this.#state = 'closing';
    const receiver = this.#receiver;
    if (receiver === null) return;
    this.#receiver = null;
    this.#clearTimers();
    this.#flushTo(receiver);
    receiver.write(GO_AWAY);
    receiver.end();
    this.#waitForReceiver();
  }

  /** Drops the session at once, without another frame. */
  terminate(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#clearTimers();
    this.#pending = [];
    this.#pendingBytes = 0;
    const receiver = this.#receiver;
    this.#receiver = null;
    receiver?.end();
    this.#options.gone();
    this.#handler?.closed();
  }

  #flush(): void {
    const receiver = this.#receiver;
    if (receiver === null) return;
    this.#flushTo(receiver);
    if (receiver.full) {
      this.#receiver = null;
      this.#clearTimers();
      receiver.end();
      this.#waitForReceiver();
      return;
    }
    this.#scheduleHeartbeat();
  }

  #flushTo(receiver: SockJsReceiver): void {
    if (this.#pending.length === 0) return;
    const frame = messageFrame(this.#pending);
    this.#pending = [];
    this.#pendingBytes = 0;
    receiver.write(frame);
  }

  #scheduleHeartbeat(): void {
    if (this.#heartbeat) clearTimeout(this.#heartbeat);
    this.#heartbeat = setTimeout(() => {
      this.#heartbeat = null;
      const receiver = this.#receiver;
      if (receiver === null) return;
      receiver.write(HEARTBEAT_FRAME);
      this.#flush();
    }, this.#options.heartbeatMs);
    this.#heartbeat.unref();
  }

  #waitForReceiver(): void {
    if (this.#disconnect) clearTimeout(this.#disconnect);
    this.#disconnect = setTimeout(() => this.terminate(), this.#options.disconnectMs);
    this.#disconnect.unref();
  }

  #clearTimers(): void {
    if (this.#heartbeat) clearTimeout(this.#heartbeat);
    if (this.#disconnect) clearTimeout(this.#disconnect);
    this.#heartbeat = this.#disconnect = null;
  }
}
