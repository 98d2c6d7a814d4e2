import { ChatPanel } from '../../features/chat/components/chat-panel.tsx';
import { LiveRoomFrame } from '../../features/classes/components/live-room-frame.tsx';
import { useClassId } from '../../features/classes/use-class-id.ts';
import { StudentStage, StudentWebcam } from '../../features/live/components/student-stage.tsx';
import { useStudentRoom } from '../../features/live/hooks/use-student-room.ts';

export function Component() {
  const classId = useClassId();
  const room = useStudentRoom(classId);
  return (
    <LiveRoomFrame
      classId={classId}
      role="student"
      chat={<ChatPanel classId={classId} />}
      screen={<StudentStage room={room} classId={classId} />}
      webcam={<StudentWebcam room={room} />}
    />
  );
}
