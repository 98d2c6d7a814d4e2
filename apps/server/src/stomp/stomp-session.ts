import {
  CHAT_ERROR_DESTINATION,
  CHAT_RECONNECT_HEADER,
  CHAT_RESTART_MESSAGE,
  CHAT_RESTART_RECONNECT_MS,
  type ChatRefusal,
} from '@sea/contract/chat';
import type { StompBroker, StompOutcome, StompSubscriber } from './stomp-ports.ts';
import { encodeFrame, frameText, stompFrame, type StompFrame } from './stomp-frame.ts';
import { StompParser } from './stomp-parser.ts';
import {
  DEFAULT_SESSION_OPTIONS,
  type StompSessionOptions,
  type StompTransport,
} from './stomp-session-options.ts';
import { readConnect, STOMP_VERSIONS } from './stomp-connect.ts';

export type { StompSessionOptions, StompTransport };

const HEARTBEAT = new Uint8Array([0x0a]);
const SERVER_NAME = 'sea-chat/1';
/** Numbers refusal MESSAGEs: a message-id must be unique, and two refusals can share a millisecond. */
let refusalCount = 0;

/**
 * One STOMP connection: reads frames, negotiates version and heart-beats, authenticates CONNECT, and hands
 * SUBSCRIBE and SEND to the broker one frame at a time (so receipts and refusals come back in order).
 * Protocol and permission failures answer an ERROR frame and close; a refused SEND does not close.
 */
export class StompSession implements StompSubscriber {
  userId = '';
  version = '1.2';

  readonly #transport: StompTransport;
  readonly #broker: StompBroker;
  readonly #options: StompSessionOptions;
  readonly #parser: StompParser;
  readonly #onClosed: (session: StompSession) => void;
  #state: 'connecting' | 'connected' | 'closed' = 'connecting';
  #queue: StompFrame[] = [];
  #draining = false;
  #lastReceived = Date.now();
  #lastSent = Date.now();
  #sendEveryMs = 0;
  #expectEveryMs = 0;
  #slowSince: number | null = null;
  #errorsSubscription: string | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;
  #connectTimer: ReturnType<typeof setTimeout> | null;

  constructor(
    transport: StompTransport,
    broker: StompBroker,
    options: Partial<StompSessionOptions> = {},
    onClosed: (session: StompSession) => void = () => undefined,
  ) {
    this.#transport = transport;
    this.#broker = broker;
    this.#options = { ...DEFAULT_SESSION_OPTIONS, ...options };
    this.#parser = new StompParser(this.#options.parserLimits);
    this.#onClosed = onClosed;
    this.#connectTimer = setTimeout(
      () => this.#guard(() => this.#fail('CONNECT expected')),
      this.#options.connectTimeoutMs,
    );
  }

  /** True until the session closed for any reason. */
  get open(): boolean {
    return this.#state !== 'closed';
  }

  /** Feeds bytes read from the socket. Never throws: a failure ends this session only. */
  receive(data: Uint8Array): void {
    this.#guard(() => this.#read(data));
  }

  /** The server failed this subscriber (its MESSAGE could not be written): ERROR, then close. */
  abort(message: string): void {
    this.#guard(() => this.#fail(message));
  }

  /**
   * The server is stopping: an ERROR frame that asks the client to reconnect ({@link CHAT_RECONNECT_HEADER},
   * a Korean `message`), then close. Not a refusal: nothing is counted as refused.
   */
  drain(): void {
    this.#guard(() => {
      if (!this.open) return;
      const headers = {
        message: CHAT_RESTART_MESSAGE,
        [CHAT_RECONNECT_HEADER]: String(CHAT_RESTART_RECONNECT_MS),
        'content-type': 'text/plain;charset=utf-8',
      };
      this.#writeFrame(stompFrame('ERROR', headers, CHAT_RESTART_MESSAGE));
      this.#close('close');
    });
  }

  #read(data: Uint8Array): void {
    if (this.#state === 'closed') return;
    this.#lastReceived = Date.now();
    for (const event of this.#parser.push(data)) {
      if (event.type === 'error') return this.#fail(event.message);
      if (event.type === 'heartbeat') continue;
      if (this.#queue.length >= this.#options.maxPendingFrames)
        return this.#fail('too many frames in flight');
      this.#queue.push(event.frame);
    }
    void this.#drain();
  }

  /** The socket closed underneath the session. */
  transportClosed(): void {
    this.#cleanup();
  }

  /** Sends a MESSAGE the broker encoded, unless this subscriber has fallen too far behind. */
  sendBytes(bytes: Uint8Array): void {
    this.#guard(() => {
      if (this.#state !== 'connected' || this.#tooSlow(Date.now())) return;
      this.#write(bytes);
    });
  }

  async #drain(): Promise<void> {
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (let frame = this.#queue.shift(); frame && this.open; frame = this.#queue.shift()) {
        try {
          await this.#handle(frame);
        } catch (error) {
          this.#crashed(error);
        }
      }
    } finally {
      this.#draining = false;
    }
  }

  async #handle(frame: StompFrame): Promise<void> {
    if (this.#state === 'connecting') {
      if (frame.command === 'CONNECT' || frame.command === 'STOMP') return this.#connect(frame);
      return this.#fail('CONNECT expected', frame);
    }
    switch (frame.command) {
      case 'SUBSCRIBE':
        return this.#subscribe(frame);
      case 'UNSUBSCRIBE':
        return this.#unsubscribe(frame);
      case 'SEND':
        return this.#send(frame);
      case 'ACK':
      case 'NACK':
        // Every subscription is ack:auto, so no message ever awaits an ACK: any id is unknown.
        return this.#fail('no message awaits acknowledgement (subscriptions are ack:auto)', frame);
      case 'DISCONNECT':
        this.#receipt(frame);
        return this.#close('close');
      case 'BEGIN':
      case 'COMMIT':
      case 'ABORT':
        return this.#fail('transactions are not supported', frame);
      default:
        return this.#fail(`unexpected ${frame.command}`, frame);
    }
  }

  async #connect(frame: StompFrame): Promise<void> {
    const offered = this.#options.heartbeatMs;
    const request = readConnect(frame, offered);
    if ('error' in request) {
      return this.#fail(request.error, frame, { version: STOMP_VERSIONS.join(',') });
    }
    this.version = this.#parser.version = request.version;
    const userId = await this.#broker.authenticate(request.token);
    if (!userId) return this.#fail('invalid or expired token', frame);
    if (this.#state !== 'connecting') return;
    this.userId = userId;
    this.#state = 'connected';
    this.#clearConnectTimer();
    this.#sendEveryMs = request.sendEveryMs;
    this.#expectEveryMs = request.expectEveryMs;
    const headers: Record<string, string> = { version: request.version, server: SERVER_NAME };
    if (request.version !== '1.0') headers['heart-beat'] = `${offered},${offered}`;
    this.#writeFrame(stompFrame('CONNECTED', headers));
    this.#startTimer();
  }

  async #subscribe(frame: StompFrame): Promise<void> {
    const destination = frame.headers.get('destination');
    const id = frame.headers.get('id') ?? (this.version === '1.0' ? destination : undefined);
    if (!destination || id === undefined) return this.#fail('SUBSCRIBE needs destination and id', frame);
    // A chat message is delivered once to whoever is there; there is nothing to redeliver on a NACK or a
    // missing ACK, so client acknowledgement is refused rather than pretended.
    const ack = frame.headers.get('ack') ?? 'auto';
    if (ack !== 'auto') return this.#fail('only ack:auto subscriptions are supported', frame);
    if (id === this.#errorsSubscription || this.#broker.hasSubscription(this, id))
      return this.#fail('subscription id already in use', frame);
    if (destination === CHAT_ERROR_DESTINATION) {
      if (this.#errorsSubscription !== null)
        return this.#fail(`already subscribed to ${CHAT_ERROR_DESTINATION}`, frame);
      this.#errorsSubscription = id;
      return this.#receipt(frame);
    }
    this.#outcome(frame, await this.#broker.subscribe(this, id, destination));
  }

  #unsubscribe(frame: StompFrame): void {
    const id =
      frame.headers.get('id') ?? (this.version === '1.0' ? frame.headers.get('destination') : undefined);
    if (id === undefined) return this.#fail('UNSUBSCRIBE needs id', frame);
    if (id === this.#errorsSubscription) this.#errorsSubscription = null;
    this.#broker.unsubscribe(this, id);
    this.#receipt(frame);
  }

  async #send(frame: StompFrame): Promise<void> {
    const destination = frame.headers.get('destination');
    if (!destination) return this.#fail('SEND needs destination', frame);
    const outcome = await this.#broker.send(this, destination, frameText(frame));
    if (outcome.type === 'ok') this.#options.meter.messageAccepted();
    this.#outcome(frame, outcome);
  }

  #outcome(frame: StompFrame, outcome: StompOutcome): void {
    if (!this.open) return;
    if (outcome.type === 'fatal') return this.#fail(outcome.message, frame);
    if (outcome.type === 'ok') return this.#receipt(frame);
    this.#options.meter.refused(outcome.code);
    const subscription = this.#errorsSubscription;
    if (subscription === null) {
      this.#options.log('info', `chat SEND refused (${outcome.code}); the client hears nothing`);
      return;
    }
    const refusal: ChatRefusal = {
      code: outcome.code,
      message: outcome.message,
      receipt: frame.headers.get('receipt') ?? null,
    };
    const headers = {
      destination: CHAT_ERROR_DESTINATION,
      subscription,
      'message-id': `refusal-${++refusalCount}`,
      'content-type': 'application/json;charset=utf-8',
    };
    this.#writeFrame(stompFrame('MESSAGE', headers, JSON.stringify(refusal)));
  }

  #receipt(frame: StompFrame): void {
    const receipt = frame.headers.get('receipt');
    if (receipt !== undefined && this.open)
      this.#writeFrame(stompFrame('RECEIPT', { 'receipt-id': receipt }));
  }

  /** Answers an ERROR frame and closes: the peer broke the protocol or is not allowed what it asked. */
  #fail(message: string, cause?: StompFrame, extra: Record<string, string> = {}): void {
    if (!this.open) return;
    this.#options.meter.refused('error');
    const headers: Record<string, string> = { message, 'content-type': 'text/plain', ...extra };
    const receipt = cause?.headers.get('receipt');
    if (receipt !== undefined) headers['receipt-id'] = receipt;
    this.#writeFrame(stompFrame('ERROR', headers, message));
    this.#close('close');
  }

  #close(how: 'close' | 'terminate'): void {
    if (!this.open) return;
    this.#cleanup();
    if (how === 'close') this.#transport.close();
    else this.#transport.terminate();
  }

  #cleanup(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#queue = [];
    this.#clearConnectTimer();
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#broker.disconnected(this);
    this.#onClosed(this);
  }

  #clearConnectTimer(): void {
    if (this.#connectTimer) clearTimeout(this.#connectTimer);
    this.#connectTimer = null;
  }

  #startTimer(): void {
    const periods = [this.#sendEveryMs, this.#expectEveryMs, this.#options.maxSlowMs].filter((ms) => ms > 0);
    const period = Math.max(10, Math.min(...periods) / 2);
    this.#timer = setInterval(() => this.#guard(() => this.#tick()), period);
    // The timer must not keep a process alive that is otherwise shutting down.
    this.#timer.unref?.();
  }

  #tick(): void {
    const now = Date.now();
    if (
      this.#expectEveryMs > 0 &&
      now - this.#lastReceived > this.#expectEveryMs * this.#options.heartbeatTolerance
    ) {
      this.#options.log('info', `chat session of ${this.userId} missed its heart-beats; closing`);
      return this.#close('terminate');
    }
    if (this.#tooSlow(now)) return;
    // Send early rather than late: the tick period is at most half the interval, so no gap exceeds it.
    if (this.#sendEveryMs > 0 && now - this.#lastSent >= this.#sendEveryMs / 2) this.#write(HEARTBEAT);
  }

  /** Closes the session when its socket cannot keep up; true if it did. */
  #tooSlow(now: number): boolean {
    const buffered = this.#transport.bufferedBytes();
    if (buffered <= this.#options.slowBufferedBytes) {
      this.#slowSince = null;
      return false;
    }
    this.#slowSince ??= now;
    if (buffered > this.#options.maxBufferedBytes || now - this.#slowSince > this.#options.maxSlowMs) {
      this.#options.log(
        'warn',
        `chat subscriber ${this.userId} too slow (${buffered} bytes queued); closing`,
      );
      this.#close('terminate');
      return true;
    }
    return false;
  }

  /**
   * The session boundary: whatever goes wrong while serving one peer (a bug, a frame the code did not foresee)
   * ends that peer's session, never the process and never another session.
   */
  #guard(action: () => void): void {
    try {
      action();
    } catch (error) {
      this.#crashed(error);
    }
  }

  #crashed(error: unknown): void {
    this.#options.log('error', `chat session of ${this.userId || 'a peer'} failed; closing it`, error);
    try {
      this.#fail('internal error');
      return;
    } catch (again) {
      this.#options.log('error', 'chat session could not answer ERROR; dropping it', again);
    }
    // Even the ERROR frame failed: forget the session and drop its socket without another word.
    for (const step of [() => this.#cleanup(), () => this.#transport.terminate()]) {
      try {
        step();
      } catch (failure) {
        this.#options.log('error', 'chat session could not be closed cleanly', failure);
      }
    }
    this.#state = 'closed';
  }

  #writeFrame(frame: StompFrame): void {
    this.#write(encodeFrame(frame, this.version));
  }

  #write(bytes: Uint8Array): void {
    this.#lastSent = Date.now();
    this.#transport.send(bytes);
  }
}
