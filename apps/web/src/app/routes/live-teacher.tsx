import { useSearchParams } from 'react-router';
import { BoardStage } from '../../features/board/components/board-stage.tsx';
import { PresenterPanel } from '../../features/board/components/presenter-panel.tsx';
import { WriterInvite } from '../../features/board/components/writer-invite.tsx';
import { useTeacherBoard } from '../../features/board/use-teacher-board.ts';
import { LiveChapterButton } from '../../features/chapters/components/live-chapter-button.tsx';
import { useClassStudents } from '../../features/classes/api/get-class-students.ts';
import { LiveRoomFrame } from '../../features/classes/components/live-room-frame.tsx';
import { useClassId } from '../../features/classes/use-class-id.ts';
import { ConnectionBanner } from '../../features/live/components/connection-banner.tsx';
import { InviteToSpeak } from '../../features/live/components/invite-to-speak.tsx';
import { LiveVideo } from '../../features/live/components/live-video.tsx';
import { TeacherControls } from '../../features/live/components/teacher-controls.tsx';
import { TeacherSpeakers } from '../../features/live/components/teacher-speakers.tsx';
import { useTeacherRoom } from '../../features/live/hooks/use-teacher-room.ts';
import { LIVE_TEXTS } from '../../features/live/texts.ts';
import { useLiveSession } from '../../features/replays/api/use-live-session.ts';
import { useRoomConnection } from '../../lib/realtime/use-room-connection.ts';
import { LiveRoomPanelView } from '../live-room-panel.tsx';

export function Component() {
  const classId = useClassId();
  const [params] = useSearchParams();
  // The dashboard's '녹화하지 않기' (see paths.liveTeacher).
  const room = useTeacherRoom(classId, { record: params.get('record') !== 'off' });
  // One room connection for the side panel and the board (the material on stage and its 판서).
  const connection = useRoomConnection(classId);
  const board = useTeacherBoard(classId, connection.connection);
  // The session on now: '여기서 새 챕터' marks a moment of it, and the lecture's time counts from its start.
  const liveSession = useLiveSession(classId);
  const liveSessionId = liveSession?.id ?? null;
  // The students in the room with their pictures (the class's student list has them), for the '참여자' tab.
  const students = useClassStudents(classId).data;
  const participants = room.participants.map((participant) => ({
    ...participant,
    avatar: students?.find((student) => student.id === participant.userId)?.profile_image_path ?? null,
  }));
  return (
    <LiveRoomFrame
      classId={classId}
      role="teacher"
      chat={
        <LiveRoomPanelView
          classId={classId}
          role="teacher"
          room={connection}
          participants={participants}
          handAction={(hand) => (
            <>
              <InviteToSpeak speaking={room.speaking} userId={hand.userId} />
              <WriterInvite view={board.view} connection={connection.connection} userId={hand.userId} />
            </>
          )}
        />
      }
      screen={
        <>
          <ConnectionBanner outage={room.outage} />
          <BoardStage
            {...board.stage}
            screen={
              <LiveVideo
                track={room.previews.screen}
                label={LIVE_TEXTS.screenPreview}
                placeholder={LIVE_TEXTS.noScreen}
              />
            }
          />
        </>
      }
      status={<PresenterPanel {...board.panel} />}
      webcam={
        <LiveVideo
          track={room.previews.webcam}
          label={LIVE_TEXTS.webcamPreview}
          placeholder={LIVE_TEXTS.noWebcam}
          fit="cover"
        />
      }
      controls={
        <>
          <TeacherControls room={room} startedAt={liveSession?.started_at ?? null} />
          {liveSessionId !== null && <LiveChapterButton classId={classId} sessionId={liveSessionId} />}
          <TeacherSpeakers speaking={room.speaking} />
        </>
      }
      onLeave={room.leave}
      onStepOut={room.stepOut}
    />
  );
}
