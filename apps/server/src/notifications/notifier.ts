import type { FastifyBaseLogger } from 'fastify';
import { membersOf } from '../classes/class-role.ts';
import type { Database } from '../db/database.ts';
import type { NotificationHub } from './notification-hub.ts';
import { storeNotifications, type NewNotification } from './notification-store.ts';

/**
 * The facts other modules report once they are stored; each becomes notices kept in the database and sent to
 * open streams. Never rejects and never delays the request that reported it: a failure is logged.
 */
export class Notifier {
  readonly #db: Database;
  readonly #hub: NotificationHub;
  readonly #log: FastifyBaseLogger;

  constructor(db: Database, hub: NotificationHub, log: FastifyBaseLogger) {
    this.#db = db;
    this.#hub = hub;
    this.#log = log;
  }

  /** A class went live: its students hear of it. */
  classWentLive(classId: number): Promise<void> {
    return this.#toStudents(classId, 'class_live');
  }

  /** A class's announcement was written or changed: its students hear of it. */
  announcementPosted(classId: number): Promise<void> {
    return this.#toStudents(classId, 'announcement');
  }

  /** A lecture's replay is ready: the class's students hear of it. */
  replayReady(classId: number): Promise<void> {
    return this.#toStudents(classId, 'replay_ready');
  }

  /** The teacher replied to a review: its author hears of it. */
  reviewReplied(classId: number, authorId: string): Promise<void> {
    return this.#send(classId, async () => [{ userId: authorId, kind: 'review_reply' }]);
  }

  /** A student enrolled: the class's teacher hears of it, with the student's nickname. */
  studentEnrolled(classId: number, nickname: string): Promise<void> {
    return this.#send(classId, async () => {
      const members = await membersOf(this.#db, classId);
      return members === null ? [] : [{ userId: members.teacherId, kind: 'enrolment', nickname }];
    });
  }

  #toStudents(classId: number, kind: 'class_live' | 'announcement' | 'replay_ready'): Promise<void> {
    return this.#send(classId, async () =>
      ((await membersOf(this.#db, classId))?.studentIds ?? []).map((userId) => ({ userId, kind })),
    );
  }

  async #send(classId: number, entries: () => Promise<NewNotification[]>): Promise<void> {
    try {
      this.#hub.deliver(await storeNotifications(this.#db, classId, await entries()));
    } catch (error) {
      this.#log.warn({ err: error, classId }, 'notifications could not be stored');
    }
  }
}
