import { useParams } from 'react-router';
import { ChatPanel } from '../../features/chat/components/chat-panel.tsx';
import { LiveRoomFrame } from '../../features/classes/components/live-room-frame.tsx';
import { parseClassId } from '../../features/classes/parse-class-id.ts';

export function Component() {
  const classId = parseClassId(useParams().classId) ?? 0;
  return <LiveRoomFrame classId={classId} role="teacher" chat={<ChatPanel classId={classId} />} />;
}
