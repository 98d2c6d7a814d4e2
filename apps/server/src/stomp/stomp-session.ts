import { CHAT_ERROR_DESTINATION } from '@sea/contract/chat';
import type { StompBroker, StompOutcome, StompSubscriber } from './stomp-ports.ts';
import { encodeFrame, frameText, stompFrame, type StompFrame } from './stomp-frame.ts';
import { StompParser } from './stomp-parser.ts';
import {
  DEFAULT_SESSION_OPTIONS,
  type StompSessionOptions,
  type StompTransport,
} from './stomp-session-options.ts';
import { readConnect, STOMP_VERSIONS } from './stomp-connect.ts';
import { StompPace } from './stomp-pace.ts';
import { connectedFrame, errorFrame, HEARTBEAT, refusalFrame, restartFrame } from './stomp-replies.ts';

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
  #state: 'connecting' | 'connected' | 'closed' = 'connecting';
  #queue: StompFrame[] = [];
  #draining = false;
  readonly #pace: StompPace;
  #errorsSubscription: string | null = null;

  constructor(transport: StompTransport, broker: StompBroker, options: Partial<StompSessionOptions> = {}) {
    this.#transport = transport;
    this.#broker = broker;
    this.#options = { ...DEFAULT_SESSION_OPTIONS, ...options };
    this.#parser = new StompParser(this.#options.parserLimits);
    this.#pace = new StompPace(this.#options, transport);
    this.#pace.awaitConnect(this.#options.connectTimeoutMs, () =>
      this.#guard(() => this.#fail('CONNECT expected')),
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
   * The server is stopping: an ERROR frame that asks the client to reconnect (the contract's reconnect header,
   * a Korean `message`), then close. Not a refusal: nothing is counted as refused.
   */
  drain(): void {
    this.#guard(() => {
      if (!this.open) return;
      this.#writeFrame(restartFrame());
      this.#close('close');
    });
  }

  #read(data: Uint8Array): void {
    if (this.#state === 'closed') return;
    this.#pace.received(Date.now());
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
    this.#pace.connected(request.sendEveryMs, request.expectEveryMs);
    this.#writeFrame(connectedFrame(request.version, offered));
    this.#pace.beat(() => this.#guard(() => this.#tick()));
  }

  async #subscribe(frame: StompFrame): Promise<void> {
    const destination = frame.headers.get('destination');
    const id = frame.headers.get('id') ?? (this.version === '1.0' ? destination : undefined);
    if (!destination || id === undefined) return this.#fail('SUBSCRIBE needs destination and id', frame);
    // A room's news is delivered once to whoever is there; there is nothing to redeliver on a NACK or a
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
    this.#writeFrame(refusalFrame(outcome, frame.headers.get('receipt'), subscription));
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
    this.#writeFrame(errorFrame(message, cause?.headers.get('receipt'), extra));
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
    this.#pace.stop();
    this.#broker.disconnected(this);
  }

  #tick(): void {
    const now = Date.now();
    if (this.#pace.silent(now)) {
      this.#options.log('info', `chat session of ${this.userId} missed its heart-beats; closing`);
      return this.#close('terminate');
    }
    if (this.#tooSlow(now)) return;
    if (this.#pace.heartbeatDue(now)) this.#write(HEARTBEAT);
  }

  /** Closes the session when its socket cannot keep up; true if it did. */
  #tooSlow(now: number): boolean {
    const buffered = this.#pace.tooSlow(now);
    if (buffered === null) return false;
    this.#options.log('warn', `chat subscriber ${this.userId} too slow (${buffered} bytes queued); closing`);
    this.#close('terminate');
    return true;
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
    this.#pace.sent(Date.now());
    this.#transport.send(bytes);
  }
}
