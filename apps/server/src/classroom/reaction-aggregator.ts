import { REACTION_UPDATES_PER_SECOND, type Reaction, type ReactionCounts } from '@sea/contract/classroom';

/** Reaction counts of one room, by emoji. */
export type Counts = Partial<Record<Reaction, number>>;

export interface ReactionAggregatorOptions {
  /** Called with a room's counts gathered since its previous call, at most `perSecond` times a second per room. */
  flush: (roomId: number, counts: ReactionCounts['counts']) => void;
  perSecond?: number;
  now?: () => number;
}

type Room = { pending: Counts; lastFlush: number; timer: ReturnType<typeof setTimeout> | null };

/**
 * Each room's slot is this much longer than `1 / perSecond`: what the server hands on 250 ms apart reaches a
 * member up to a few tens of milliseconds unevenly (the fan-out's writes, the member's reads), and the classroom
 * bench saw 5 updates in one second at members, gaps of 227-239 ms, with slots of exactly 250 ms. With 275 ms,
 * five updates take 1.1 s even when the fifth arrives 100 ms early.
 */
const SLOT_MARGIN = 1.1;

/**
 * Sums reactions per room and hands each room's sum on at most `perSecond` times a second: the first reaction
 * after a quiet moment goes at once, later ones wait for the room's next slot. Used twice per instance: for what
 * this instance sends to the others, and for what this instance's subscribers get, so that a subscriber gets at
 * most that many updates a second whatever the number of instances and students.
 */
export class ReactionAggregator {
  readonly #flush: ReactionAggregatorOptions['flush'];
  readonly #intervalMs: number;
  readonly #now: () => number;
  readonly #rooms = new Map<number, Room>();
  #closed = false;

  constructor(options: ReactionAggregatorOptions) {
    this.#flush = options.flush;
    this.#intervalMs = (1000 / (options.perSecond ?? REACTION_UPDATES_PER_SECOND)) * SLOT_MARGIN;
    this.#now = options.now ?? Date.now;
  }

  /** Adds counts to a room's sum. */
  add(roomId: number, counts: Counts): void {
    if (this.#closed) return;
    let room = this.#rooms.get(roomId);
    if (!room) {
      room = { pending: {}, lastFlush: -Infinity, timer: null };
      this.#rooms.set(roomId, room);
    }
    for (const [emoji, count] of Object.entries(counts) as Array<[Reaction, number]>) {
      room.pending[emoji] = (room.pending[emoji] ?? 0) + count;
    }
    if (room.timer !== null) return;
    const wait = Math.max(0, room.lastFlush + this.#intervalMs - this.#now());
    const due = room;
    due.timer = setTimeout(() => this.#send(roomId, due), wait);
    due.timer.unref?.();
  }

  /** Drops what is pending and stops every timer. */
  close(): void {
    this.#closed = true;
    for (const room of this.#rooms.values()) if (room.timer) clearTimeout(room.timer);
    this.#rooms.clear();
  }

  #send(roomId: number, room: Room): void {
    room.timer = null;
    room.lastFlush = this.#now();
    const counts = room.pending;
    room.pending = {};
    // A room quiet for a whole slot is forgotten: rooms come and go all day.
    if (Object.keys(counts).length === 0) {
      this.#rooms.delete(roomId);
      return;
    }
    this.#flush(roomId, counts);
    // Keep the room (and its last flush time) for one more slot, so a reaction right after waits its turn.
    room.timer = setTimeout(() => {
      room.timer = null;
      if (Object.keys(room.pending).length === 0) this.#rooms.delete(roomId);
      else this.#send(roomId, room);
    }, this.#intervalMs);
    room.timer.unref?.();
  }
}
