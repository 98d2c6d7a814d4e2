import {
  HAND_LOWER_DESTINATION,
  HAND_RAISE_DESTINATION,
  handTopic,
  type HandsView,
} from '@sea/contract/classroom';
import { fetchHands } from './api/fetch-hands.ts';
import type { RoomConnection } from '../../lib/realtime/room-connection.ts';
import { useRoomState } from './use-room-state.ts';

export type HandsControls = {
  hands: HandsView;
  /** Student: raises or lowers their own hand. */
  setRaised: (raised: boolean) => void;
  /** Teacher: lowers one student's hand, or all without a user id. */
  lower: (userId?: string) => void;
};

/** The raised hands of the room: the queue for the teacher, the count and one's own hand for a student. */
export function useHands(connection: RoomConnection | null, classId: number): HandsControls {
  const [hands] = useRoomState<HandsView>(
    connection,
    handTopic(classId),
    { roomId: classId, count: 0, raised: false, queue: [] },
    () => fetchHands(classId),
    (_, body) => body as HandsView,
  );
  return {
    hands,
    setRaised: (raised) => void connection?.publish(HAND_RAISE_DESTINATION, { raised }),
    lower: (userId) =>
      void connection?.publish(HAND_LOWER_DESTINATION, userId === undefined ? {} : { userId }),
  };
}
