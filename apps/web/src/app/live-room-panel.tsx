import type { RoomRole } from '@sea/contract/chat';
import { ChatPanel } from '../features/chat/components/chat-panel.tsx';
import { ClassroomPanel } from '../features/classroom/components/classroom-panel.tsx';
import type { HandsBarProps } from '../features/classroom/components/hands-bar.tsx';
import type { RoomParticipant } from '../features/classroom/components/participants-panel.tsx';
import {
  useRoomConnection,
  type CreateRoomConnection,
  type RoomView,
} from '../lib/realtime/use-room-connection.ts';

export type LiveRoomPanelProps = {
  classId: number;
  /** The reader's role in the room: the teacher gets the moderation tools and the hands queue. */
  role?: RoomRole;
  /** Another connection factory (tests); the real one connects to the server's `/ws`. */
  createConnection?: CreateRoomConnection;
  /** The teacher's extra control beside each raised hand (the live room's '발언 요청'). */
  handAction?: HandsBarProps['handAction'];
  /** The teacher's: the students in the room now, for the '참여자' tab. */
  participants?: readonly RoomParticipant[];
};

/** The live rooms' side panel: one room connection, the classroom around it and the chat in its first tab. */
export function LiveRoomPanel({
  classId,
  role = 'student',
  createConnection,
  handAction,
  participants,
}: LiveRoomPanelProps) {
  const room = useRoomConnection(classId, createConnection);
  return (
    <LiveRoomPanelView
      classId={classId}
      role={role}
      room={room}
      handAction={handAction}
      participants={participants}
    />
  );
}

/**
 * The side panel over a room connection the page already holds (the board shares it); the teacher's room
 * gives its students for the '참여자' tab.
 */
export function LiveRoomPanelView({
  classId,
  role = 'student',
  room,
  handAction,
  participants,
}: Omit<LiveRoomPanelProps, 'createConnection'> & { room: RoomView }) {
  return (
    <ClassroomPanel
      classId={classId}
      role={role}
      room={room}
      handAction={handAction}
      participants={participants}
      chat={({ actionsFor, footer, blocked }) => (
        <ChatPanel
          messages={room.messages}
          disabled={room.state !== 'connected'}
          blocked={blocked}
          send={room.send}
          actionsFor={actionsFor}
          footer={footer}
        />
      )}
    />
  );
}
