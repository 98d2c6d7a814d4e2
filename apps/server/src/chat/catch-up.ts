import type { ChatMessage } from '@sea/contract/chat';
import type { Outage, RoomLog } from '../room-bus/room-ports.ts';
import type { MessageLog } from './message-log.ts';

export interface CatchUpOptions {
  messages: Pick<MessageLog, 'lastIdBefore' | 'listAfter'>;
  /** The rooms with subscribers here, when the catch-up starts. */
  roomIds: () => number[];
  /** Hands a re-read message on; repeats of what was delivered already are dropped there. */
  deliver: (message: ChatMessage) => void;
  log: RoomLog;
  now: () => number;
  /** How long before the fan-out went away the catch-up starts reading (see {@link CatchUp.resumed}). */
  marginMs?: number;
  /** Pause before the catch-up is tried again when the database failed it; doubled on each try. */
  retryMs?: number;
}

/** A message is stored, then published within milliseconds; a minute also covers clocks a little apart. */
const DEFAULT_MARGIN_MS = 60_000;
const PAGE = 500;
const TRIES = 5;

/**
 * Catch-up after a fan-out outage: what other instances published while the transport was away is read back
 * from the message log. Where to start is not "after the highest id delivered here": ids are taken when a
 * message is stored, so a message of another instance with a lower id may still have been on its way when the
 * transport went away. The catch-up starts after the last message stored a margin before the transport went
 * away, and reads every page from there.
 */
export class CatchUp implements Outage {
  readonly #options: CatchUpOptions;
  readonly #marginMs: number;
  readonly #retryMs: number;
  /** When the fan-out went away; null while it is there. */
  #suspendedAt: number | null = null;

  constructor(options: CatchUpOptions) {
    this.#options = options;
    this.#marginMs = options.marginMs ?? DEFAULT_MARGIN_MS;
    this.#retryMs = options.retryMs ?? 1_000;
  }

  /** The fan-out lost its transport: remember when, so the catch-up knows where to start. */
  suspended(): void {
    this.#suspendedAt ??= this.#options.now();
  }

  /**
   * The fan-out is back: re-read, for every room with subscribers here, what may have been missed. False when
   * there was no outage to catch up on.
   */
  resumed(): boolean {
    const suspendedAt = this.#suspendedAt;
    this.#suspendedAt = null;
    if (suspendedAt === null) return false;
    void this.#run(new Date(suspendedAt - this.#marginMs));
    return true;
  }

  async #run(since: Date): Promise<void> {
    const { messages, log } = this.#options;
    let floor: number | null = null;
    for (let tries = 1; floor === null; tries += 1) {
      try {
        floor = await messages.lastIdBefore(since);
      } catch (error) {
        if (tries === TRIES) {
          log('error', 'chat catch-up after a fan-out outage failed; messages may be missing', error);
          return;
        }
        log('warn', 'chat catch-up failed; trying again', error);
        await new Promise((resolve) => setTimeout(resolve, this.#retryMs * 2 ** (tries - 1)));
      }
    }
    for (const roomId of this.#options.roomIds()) {
      try {
        await this.#room(roomId, floor);
      } catch (error) {
        log('error', `chat catch-up of class ${roomId} failed; messages may be missing`, error);
      }
    }
  }

  async #room(roomId: number, floor: number): Promise<void> {
    for (let after = floor; ;) {
      const page = await this.#options.messages.listAfter(roomId, after, PAGE);
      for (const message of page) this.#options.deliver(message);
      const last = page.at(-1);
      if (page.length < PAGE || last === undefined) return;
      after = last.id;
    }
  }
}
