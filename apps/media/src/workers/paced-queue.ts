/** How long one turn of a {@link PacedQueue} may run before the event loop gets to poll its sockets. */
export const TURN_MS = 2;

/** A first-in first-out list that drops its head's slots only now and then (no `shift()` per item). */
class Lane<T> {
  private items: T[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  take(): T {
    const item = this.items[this.head] as T;
    this.head += 1;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 1024) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

/**
 * Runs queued work in turns of at most {@link TURN_MS}, giving the event loop back in between, urgent items
 * first.
 *
 * Why: a forwarding worker gets the teacher's packets as messages on its port, and Node hands a port up to a
 * thousand queued messages in one go before it polls anything else. Forwarding one packet to 50 students takes
 * about a millisecond, so a worker behind by a few hundred packets left its own UDP sockets unread for as long:
 * the students' ICE checks waited, and a werift client, which gives up on a check after 1.55 s, never connected
 * (bench/sfu, 100 students). Taking a message now only queues it; the forwarding runs from `setImmediate`, after
 * each poll, so a student's STUN, DTLS and RTCP wait at most one turn whatever the backlog. Audio is urgent:
 * it goes ahead of queued video, whose lateness the stale-video gate bounds.
 */
export class PacedQueue<T> {
  private readonly urgent = new Lane<T>();
  private readonly normal = new Lane<T>();
  private scheduled = false;
  private readonly run: (item: T) => void;

  constructor(run: (item: T) => void) {
    this.run = run;
  }

  get length(): number {
    return this.urgent.length + this.normal.length;
  }

  push(item: T, urgent = false): void {
    (urgent ? this.urgent : this.normal).push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.turn);
  }

  private readonly turn = (): void => {
    const until = performance.now() + TURN_MS;
    try {
      do {
        this.run(this.urgent.length > 0 ? this.urgent.take() : this.normal.take());
      } while (this.length > 0 && performance.now() < until);
    } finally {
      // Also after a throw (it goes on to the thread as before): the rest of the queue still runs.
      if (this.length > 0) setImmediate(this.turn);
      else this.scheduled = false;
    }
  };
}
