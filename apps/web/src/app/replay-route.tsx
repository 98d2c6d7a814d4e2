import { ReplayBoardSection } from '../features/board/components/replay-board-section.tsx';
import { useClass } from '../features/classes/api/get-class.ts';
import { ChapterList } from '../features/chapters/components/chapter-list.tsx';
import { ChapterMarks } from '../features/chapters/components/chapter-marks.tsx';
import { MemberGate } from '../features/classes/components/member-gate.tsx';
import { useClassId } from '../features/classes/use-class-id.ts';
import { NotesPanel } from '../features/notes/components/notes-panel.tsx';
import { ReplayPage } from '../features/replays/components/replay-page.tsx';
import { ReplayRefused } from '../features/replays/components/replay-refused.tsx';
import { useSessionId } from '../features/replays/use-session-id.ts';

/** A replay's page for its teacher (chapters editable) or a student, behind the member gate. */
export function ReplayRoute({ role }: { role: 'teacher' | 'student' }) {
  const classId = useClassId();
  const sessionId = useSessionId();
  // The breadcrumb names the class; the page shows without it meanwhile.
  const lesson = useClass(classId);
  // A stranger is told so before the replay is asked for (its 418 would be logged as a failed request).
  return (
    <MemberGate classId={classId} stranger={<ReplayRefused classId={classId} role={role} />}>
      <ReplayPage
        classId={classId}
        sessionId={sessionId}
        className={lesson.data?.name}
        role={role}
        timeline={({ timeMs, durationMs, seek }) => (
          <ChapterMarks
            classId={classId}
            sessionId={sessionId}
            timeMs={timeMs}
            durationMs={durationMs}
            onSeek={seek}
          />
        )}
        study={({ timeMs, seek }) => (
          <>
            <ChapterList
              classId={classId}
              sessionId={sessionId}
              timeMs={timeMs}
              onSeek={seek}
              editable={role === 'teacher'}
            />
            <NotesPanel
              classId={classId}
              className={lesson.data?.name}
              sessionId={sessionId}
              timeMs={timeMs}
              onSeek={seek}
            />
          </>
        )}
        beside={({ timeMs }) => (
          <ReplayBoardSection classId={classId} sessionId={sessionId} timeMs={timeMs} />
        )}
      />
    </MemberGate>
  );
}
