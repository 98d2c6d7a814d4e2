import { HandLowerSchema, HandRaiseSchema, handTopic } from '@sea/contract/classroom';
import type { RoomLog, RoomContext, RoomEvent, SendHandler, SendLimiter } from '../room-bus/room-ports.ts';
import { refuse, REFUSAL_TEXTS } from '../room-bus/refusals.ts';
import { admit, eventId } from '../room-bus/room-action.ts';
import type { Database } from '../db/database.ts';
import { handQueue, handsAs, lowerHands, setHand } from './hand-store.ts';
import type { StompOutcome, StompSubscriber } from '../stomp/stomp-ports.ts';

export interface HandActionsOptions {
  db: Database;
  room: RoomContext;
  /** The chat's write budget (a raised hand, an answer). */
  limiter?: SendLimiter;
  log: RoomLog;
}

const OK: StompOutcome = { type: 'ok' };

/** The room's hands after a change, read from the database: the queue for the teacher, counts for students. */
export async function handsEvent(db: Database, classId: number): Promise<RoomEvent> {
  const queue = await handQueue(db, classId);
  return {
    destination: handTopic(classId),
    id: eventId('hands'),
    body: handsAs(classId, queue, { userId: '', teacher: true }),
    student: handsAs(classId, queue, { userId: '', teacher: false }),
    own: {
      userIds: queue.map((hand) => hand.userId),
      body: { ...handsAs(classId, queue, { userId: '', teacher: false }), raised: true },
    },
  };
}

/**
 * Raised hands, one handler per destination: a student raises or lowers their own (`/app/hands`), the teacher
 * lowers one or all (`/app/hands/lower`). Stored first; then the new state goes to `/topic/hands/{classId}`.
 */
export function handActions(options: HandActionsOptions): { raise: SendHandler; lower: SendHandler } {
  const { db, room, log, limiter } = options;
  const changed = async (classId: number, change: () => Promise<void>): Promise<StompOutcome> => {
    try {
      await change();
      room.publishEvent(await handsEvent(db, classId));
    } catch (error) {
      log('error', 'hands change failed', error);
      return refuse('unavailable', REFUSAL_TEXTS.unavailable);
    }
    return OK;
  };
  return {
    raise: {
      async send(subscriber: StompSubscriber, text: string): Promise<StompOutcome> {
        const admitted = await admit(room, subscriber, HandRaiseSchema, text, 'anyone', limiter);
        if ('outcome' in admitted) return admitted.outcome;
        if (admitted.role === 'teacher') return refuse('bad-request', '손들기는 수강생만 할 수 있어요.');
        const { roomId, raised } = admitted.body;
        return changed(roomId, () => setHand(db, roomId, subscriber.userId, raised));
      },
    },
    lower: {
      async send(subscriber: StompSubscriber, text: string): Promise<StompOutcome> {
        const admitted = await admit(room, subscriber, HandLowerSchema, text, 'teacher');
        if ('outcome' in admitted) return admitted.outcome;
        const { roomId, userId } = admitted.body;
        return changed(roomId, () => lowerHands(db, roomId, userId));
      },
    },
  };
}
