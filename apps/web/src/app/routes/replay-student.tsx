import { ReplayBoardSection } from '../../features/board/components/replay-board-section.tsx';
import { useClassId } from '../../features/classes/use-class-id.ts';
import { ReplayPage } from '../../features/replays/components/replay-page.tsx';
import { useSessionId } from '../../features/replays/use-session-id.ts';

export function Component() {
  const classId = useClassId();
  const sessionId = useSessionId();
  return (
    <ReplayPage
      classId={classId}
      sessionId={sessionId}
      role="student"
      beside={({ timeMs, seek }) => (
        <ReplayBoardSection
          classId={classId}
          sessionId={sessionId}
          timeMs={timeMs}
          onSeek={seek}
          editable={false}
        />
      )}
    />
  );
}
