import type { ChatMessage } from '@sea/contract/chat';
import { MAX_KEPT_MESSAGES, mergeMessages } from './merge-messages.ts';

/**
 * The messages a room connection holds, oldest first and without repeats, with what it must remember across
 * reconnects: the highest id ever held (where a re-read starts when nothing is held) and the messages deleted
 * live (a read answered before a deletion must not bring them back). Each change answers whether the list
 * changed, so the connection tells its listeners only then.
 */
export class MessageLog {
  #messages: readonly ChatMessage[] = [];
  #lastSeen = 0;
  readonly #deleted = new Set<number>();

  /** Messages so far, oldest first; the same array until it changes. */
  get messages(): readonly ChatMessage[] {
    return this.#messages;
  }

  /** Where a re-read starts: just before the oldest message held, else after the last one ever seen. */
  get readFrom(): number {
    const oldest = this.#messages[0]?.id;
    return oldest === undefined ? this.#lastSeen : oldest - 1;
  }

  /** The ids held now. */
  ids(): Set<number> {
    return new Set(this.#messages.map((message) => message.id));
  }

  /** Adds messages that came live. */
  merge(incoming: readonly ChatMessage[]): boolean {
    return this.#set(mergeMessages(this.#messages, incoming));
  }

  /**
   * Merges what a history read answered, dropping the `held` messages (within `covered`) it no longer has:
   * they were deleted while this client was away.
   */
  replace(
    read: readonly ChatMessage[],
    held: ReadonlySet<number>,
    covered: (id: number) => boolean,
  ): boolean {
    const answered = new Set(read.map((message) => message.id));
    const kept = this.#messages.filter(
      (message) => !held.has(message.id) || answered.has(message.id) || !covered(message.id),
    );
    const fresh = read.filter((message) => !this.#deleted.has(message.id));
    return this.#set(mergeMessages(kept, fresh));
  }

  /** The teacher deleted a message: drops it, and keeps it from coming back. */
  delete(messageId: number): boolean {
    // Deletions are rare: the set stays small for a page's life (bounded all the same).
    if (this.#deleted.size >= MAX_KEPT_MESSAGES) this.#deleted.clear();
    this.#deleted.add(messageId);
    const kept = this.#messages.filter((message) => message.id !== messageId);
    return kept.length !== this.#messages.length && this.#set(kept);
  }

  #set(messages: readonly ChatMessage[]): boolean {
    if (messages === this.#messages) return false;
    this.#messages = messages;
    this.#lastSeen = Math.max(this.#lastSeen, messages.at(-1)?.id ?? 0);
    return true;
  }
}
