/**
 * A bounded set of the most recently seen ids, oldest forgotten first. Used to deliver each room event (a chat
 * message...) once even when a fan-out transport or the chat's catch-up repeats it after a reconnect.
 */
export class RecentIds<Id extends number | string = number> {
  readonly #capacity: number;
  readonly #ids = new Set<Id>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Records the id; false if it was already recorded. */
  add(id: Id): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > this.#capacity) {
      // A Set iterates in insertion order, so the first entry is the oldest.
      const oldest = this.#ids.values().next();
      if (!oldest.done) this.#ids.delete(oldest.value);
    }
    return true;
  }
}
