import {
  HAND_LOWER_DESTINATION,
  HAND_RAISE_DESTINATION,
  HandLowerSchema,
  HandRaiseSchema,
  handTopic,
} from '@sea/contract/classroom';
import type { Database } from '../db/database.ts';
import { openSessionOf } from '../sessions/session-store.ts';
import { refuse } from '../room-bus/refusals.ts';
import { eventId, OK, roomAction } from '../room-bus/room-action.ts';
import type { RoomContext, RoomEvent } from '../room-bus/room-ports.ts';
import type { StompOutcome } from '../stomp/stomp-ports.ts';
import { handQueue, handsAs, lowerHands, setHand } from './hand-store.ts';

export interface HandActionsOptions {
  db: Database;
  room: Pick<RoomContext, 'publishEvent'>;
}

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
 * Raised hands, one action per destination: a student raises (while live) or lowers their own (`/app/hands`), the teacher
 * lowers one or all (`/app/hands/lower`). Stored first; then the new state goes to `/topic/hands/{classId}`.
 */
export function handActions(options: HandActionsOptions) {
  const { db, room } = options;
  const changed = async (classId: number, change: () => Promise<void>): Promise<StompOutcome> => {
    await change();
    room.publishEvent(await handsEvent(db, classId));
    return OK;
  };
  return {
    [HAND_RAISE_DESTINATION]: roomAction({
      name: 'hands change',
      admit: { schema: HandRaiseSchema, who: 'anyone', limited: true },
      async act({ body, userId, role }) {
        if (role === 'teacher') return refuse('bad-request', '손들기는 수강생만 할 수 있어요.');
        // Lowering one's own hand is always fine; raising it waits for the class to be live.
        if (body.raised && (await openSessionOf(db, body.roomId)) === null) {
          return refuse('not-live', '라이브 수업 중에만 손을 들 수 있어요.');
        }
        return changed(body.roomId, () => setHand(db, body.roomId, userId, body.raised));
      },
    }),
    [HAND_LOWER_DESTINATION]: roomAction({
      name: 'hands change',
      admit: { schema: HandLowerSchema, who: 'teacher' },
      act: ({ body }) => changed(body.roomId, () => lowerHands(db, body.roomId, body.userId)),
    }),
  };
}
