import { ReplayBoardSection } from '../../features/board/components/replay-board-section.tsx';
import { useClass } from '../../features/classes/api/get-class.ts';
import { useClassId } from '../../features/classes/use-class-id.ts';
import { ReplayPage } from '../../features/replays/components/replay-page.tsx';
import { useSessionId } from '../../features/replays/use-session-id.ts';

export function Component() {
  const classId = useClassId();
  const sessionId = useSessionId();
  // The breadcrumb names the class; the page shows without it meanwhile.
  const lesson = useClass(classId);
  return (
    <ReplayPage
      classId={classId}
      sessionId={sessionId}
      className={lesson.data?.name}
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
