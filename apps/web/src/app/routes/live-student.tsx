import { ChatClosed } from '../../features/chat/components/chat-closed.tsx';
import { LiveRoomFrame } from '../../features/classes/components/live-room-frame.tsx';
import { useClassId } from '../../features/classes/use-class-id.ts';
import { StudentSpeaking } from '../../features/live/components/student-speaking.tsx';
import { StudentStage, StudentStatus, StudentWebcam } from '../../features/live/components/student-stage.tsx';
import { useStudentRoom } from '../../features/live/hooks/use-student-room.ts';
import { LiveRoomPanel } from '../live-room-panel.tsx';

export function Component() {
  const classId = useClassId();
  const room = useStudentRoom(classId);
  // While the class is not live the stage says so once; the chat stays off until the lecture starts.
  const notLive = room.error?.kind === 'notLive';
  return (
    <LiveRoomFrame
      classId={classId}
      role="student"
      chat={notLive ? <ChatClosed /> : <LiveRoomPanel classId={classId} />}
      screen={<StudentStage room={room} classId={classId} />}
      webcam={<StudentWebcam room={room} />}
      status={
        <>
          <StudentStatus room={room} />
          {!room.error && <StudentSpeaking speaking={room.speaking} />}
        </>
      }
    />
  );
}
