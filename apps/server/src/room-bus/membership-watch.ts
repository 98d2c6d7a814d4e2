import type { RoomAccess, RoomLog, MembershipScope } from './room-ports.ts';
import type { Subscriptions } from './subscriptions.ts';

/** The ERROR message of a session whose membership is refused or ended. */
export const NOT_A_MEMBER = 'not a member of this class';

const DEFAULT_CHECK_MS = 60_000;

export interface MembershipWatchOptions {
  access: Pick<RoomAccess, 'stillMembers' | 'forgetMemberships'>;
  subscriptions: Subscriptions;
  log: RoomLog;
  /**
   * How often every subscription's membership is read again (0: never), the backstop for an ended membership
   * whose news did not arrive (Redis away, a change made outside this server).
   */
  everyMs?: number;
}

/**
 * Ends the sessions of subscribers who are no longer the class's teacher or student (ERROR, as a SUBSCRIBE
 * would have been answered), for every kind of room topic: when told where memberships may have ended, and
 * periodically. The news only says where to look: the database decides, so a wrong or repeated announcement
 * closes nothing.
 */
export class MembershipWatch {
  readonly #access: MembershipWatchOptions['access'];
  readonly #subscriptions: Subscriptions;
  readonly #log: RoomLog;
  readonly #timer: ReturnType<typeof setInterval> | null;
  #checkingAll = false;

  constructor(options: MembershipWatchOptions) {
    this.#access = options.access;
    this.#subscriptions = options.subscriptions;
    this.#log = options.log;
    const every = options.everyMs ?? DEFAULT_CHECK_MS;
    this.#timer = every > 0 ? setInterval(() => void this.recheck('all'), every) : null;
    // The check must not keep a process alive that is otherwise shutting down.
    this.#timer?.unref?.();
  }

  /** Reads the memberships of the subscriptions in scope afresh and aborts the subscribers who lost theirs. */
  async recheck(scope: MembershipScope): Promise<void> {
    if (scope === 'all') {
      // Periodic checks never pile up behind a slow database.
      if (this.#checkingAll) return;
      this.#checkingAll = true;
    }
    try {
      this.#access.forgetMemberships();
      const roomIds = scope === 'all' ? this.#subscriptions.roomIds() : [scope.classId];
      for (const roomId of roomIds) await this.#recheckRoom(roomId);
    } finally {
      if (scope === 'all') this.#checkingAll = false;
    }
  }

  /** Stops the periodic check. */
  close(): void {
    if (this.#timer) clearInterval(this.#timer);
  }

  async #recheckRoom(roomId: number): Promise<void> {
    const subscriptions = this.#subscriptions.inRoom(roomId);
    if (subscriptions.length === 0) return;
    const userIds = [...new Set(subscriptions.map(({ subscriber }) => subscriber.userId))];
    let members: Set<string>;
    try {
      members = await this.#access.stillMembers(roomId, userIds);
    } catch (error) {
      this.#log('warn', `chat membership check of class ${roomId} failed`, error);
      return;
    }
    for (const { subscriber } of this.#subscriptions.inRoom(roomId)) {
      if (!members.has(subscriber.userId) && userIds.includes(subscriber.userId)) {
        subscriber.abort(NOT_A_MEMBER);
      }
    }
  }
}
