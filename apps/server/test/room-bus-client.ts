import { CHAT_SEND_DESTINATION, chatTopic, type ChatMessage, type ChatRefusal } from '@sea/contract/chat';
import type { RoomBroker } from '../src/room-bus/room-broker.ts';
import { frameText } from '../src/stomp/stomp-frame.ts';
import { StompParser } from '../src/stomp/stomp-parser.ts';
import type { StompSubscriber } from '../src/stomp/stomp-ports.ts';

/**
 * A member acting on the room bus at the handler: no socket and no STOMP session, the bus's own answers
 * instead. It reads as {@link TestChatClient} does (`watch`, `request`, `sendAndWait`, `messages`), so a room
 * action's cases run here and one case per destination family runs over a real socket.
 */
export class RoomBusClient implements StompSubscriber {
  readonly userId: string;
  readonly version = '1.2';
  readonly messages: ChatMessage[] = [];
  /** The ERROR messages that ended the session (a membership refused or ended). */
  readonly errors: string[] = [];
  open = true;
  readonly #bus: RoomBroker;
  readonly #parser = new StompParser();
  readonly #bodies = new Map<string, unknown[]>();
  #subscriptions = 0;
  #ended: () => void = () => undefined;
  readonly #closed = new Promise<void>((resolve) => (this.#ended = resolve));

  constructor(bus: RoomBroker, userId: string) {
    this.#bus = bus;
    this.userId = userId;
  }

  /** Subscribes to the class's chat messages (into `messages`). */
  async join(classId: number): Promise<void> {
    await this.#subscribe(chatTopic(classId), this.messages);
  }

  /** Subscribes to any room topic; its bodies collect in the array answered (a greeting's first). */
  async watch(destination: string): Promise<unknown[]> {
    return this.#subscribe(destination, []);
  }

  /** Sends to a destination: null when done, or the refusal the sender would hear. */
  async request(destination: string, body: unknown): Promise<ChatRefusal | null> {
    const outcome = await this.#bus.send(this, destination, JSON.stringify(body));
    if (outcome.type === 'ok') return null;
    if (outcome.type === 'refused') return { code: outcome.code, message: outcome.message, receipt: null };
    this.abort(outcome.message);
    throw new Error(`the session ended: ${outcome.message}`);
  }

  /** Sends a chat message and resolves once it is stored. */
  async sendAndWait(body: unknown): Promise<void> {
    const refusal = await this.request(CHAT_SEND_DESTINATION, body);
    if (refusal) throw new Error(`refused: ${refusal.message}`);
  }

  /** Resolves when the bus ended the session. */
  closed(): Promise<void> {
    return this.#closed;
  }

  async #subscribe<T>(destination: string, bodies: T[]): Promise<T[]> {
    const id = `sub-${this.#subscriptions++}`;
    this.#bodies.set(id, bodies as unknown[]);
    const outcome = await this.#bus.subscribe(this, id, destination);
    if (outcome.type === 'fatal') this.abort(outcome.message);
    return bodies;
  }

  sendBytes(bytes: Uint8Array): void {
    for (const event of this.#parser.push(bytes)) {
      if (event.type !== 'frame' || event.frame.command !== 'MESSAGE') continue;
      const bodies = this.#bodies.get(event.frame.headers.get('subscription') ?? '');
      bodies?.push(JSON.parse(frameText(event.frame)));
    }
  }

  abort(message: string): void {
    if (!this.open) return;
    this.open = false;
    this.errors.push(message);
    this.#bus.disconnected(this);
    this.#ended();
  }
}
