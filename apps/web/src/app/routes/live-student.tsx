import { useCallback } from 'react';
import { MemberGate } from '../../features/classes/components/member-gate.tsx';
import { useClassId } from '../../features/classes/use-class-id.ts';
import { useRoomFailure } from '../../features/live/hooks/use-room-failure.ts';
import { NotMemberError } from '../../features/live/room-failure.ts';
import { LiveStudentRoom } from '../live-student-room.tsx';

export function Component() {
  const classId = useClassId();
  const fail = useRoomFailure('student', classId);
  // A stranger leaves for the class introduction with the room's own notice, before the room asks anything.
  const refuse = useCallback(() => void fail(new NotMemberError()), [fail]);
  return (
    <MemberGate classId={classId} onStranger={refuse}>
      <LiveStudentRoom classId={classId} />
    </MemberGate>
  );
}
