import { BoardStage } from '../features/board/components/board-stage.tsx';
import { StudentBoardBar } from '../features/board/components/student-board-bar.tsx';
import { useStudentBoard } from '../features/board/use-student-board.ts';
import { ChatClosed } from '../features/chat/components/chat-closed.tsx';
import { LiveRoomFrame } from '../features/classes/components/live-room-frame.tsx';
import { useClass } from '../features/classes/api/get-class.ts';
import { ConnectionBanner } from '../features/live/components/connection-banner.tsx';
import { LiveNotes } from '../features/notes/components/live-notes.tsx';
import { StudentSpeaking } from '../features/live/components/student-speaking.tsx';
import {
  StudentAudio,
  StudentStage,
  StudentStatus,
  StudentWebcam,
} from '../features/live/components/student-stage.tsx';
import { useStudentRoom } from '../features/live/hooks/use-student-room.ts';
import { useLiveSessionId } from '../features/replays/api/use-live-session.ts';
import { useRoomConnection } from '../lib/realtime/use-room-connection.ts';
import { LiveRoomPanelView } from './live-room-panel.tsx';

/** The student's live room of a class the student is enrolled in (the route asks that first). */
export function LiveStudentRoom({ classId }: { classId: number }) {
  const className = useClass(classId).data?.name;
  // One room connection for the side panel and the board (the teacher's material and 판서).
  const connection = useRoomConnection(classId);
  const board = useStudentBoard(classId, connection.connection);
  // The teacher's material on stage (the student may leaf through it: still on stage). In '데이터 절약 모드' the
  // screen share's video is then not received, so the page takes the stage alone whatever the layout.
  const materialOnStage = board.stage.page !== null;
  const room = useStudentRoom(classId, materialOnStage);
  const layout = room.dataSaving ? 'board' : board.stage.layout;
  // While the class is not live the stage says so once; the chat stays off until the lecture starts.
  const notLive = room.error?.kind === 'notLive';
  // The session on now: notes taken here land at its moment, where the replay shows them.
  const liveSessionId = useLiveSessionId(classId);
  return (
    <LiveRoomFrame
      classId={classId}
      role="student"
      chat={notLive ? <ChatClosed /> : <LiveRoomPanelView classId={classId} room={connection} />}
      screen={
        notLive ? (
          <StudentStage room={room} classId={classId} />
        ) : (
          // The board needs no media: it shows even when the video cannot be received.
          <>
            <ConnectionBanner outage={room.outage} />
            <BoardStage
              {...board.stage}
              layout={layout}
              screen={<StudentStage room={room} classId={classId} />}
            />
            <StudentAudio room={room} />
          </>
        )
      }
      webcam={<StudentWebcam room={room} />}
      status={
        <>
          <StudentStatus room={room} />
          {!room.error && <StudentSpeaking speaking={room.speaking} />}
          {!notLive && <StudentBoardBar board={board} />}
          {!notLive && liveSessionId !== null && (
            <LiveNotes classId={classId} className={className} sessionId={liveSessionId} />
          )}
        </>
      }
    />
  );
}
