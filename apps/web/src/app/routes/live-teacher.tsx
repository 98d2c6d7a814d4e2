import { useSearchParams } from 'react-router';
import { LiveRoomFrame } from '../../features/classes/components/live-room-frame.tsx';
import { useClassId } from '../../features/classes/use-class-id.ts';
import { InviteToSpeak } from '../../features/live/components/invite-to-speak.tsx';
import { LiveVideo } from '../../features/live/components/live-video.tsx';
import { TeacherControls } from '../../features/live/components/teacher-controls.tsx';
import { TeacherSpeakers } from '../../features/live/components/teacher-speakers.tsx';
import { useTeacherRoom } from '../../features/live/hooks/use-teacher-room.ts';
import { LIVE_TEXTS } from '../../features/live/texts.ts';
import { LiveRoomPanel } from '../live-room-panel.tsx';

export function Component() {
  const classId = useClassId();
  const [params] = useSearchParams();
  // The dashboard's '녹화하지 않기' (see paths.liveTeacher).
  const room = useTeacherRoom(classId, { record: params.get('record') !== 'off' });
  return (
    <LiveRoomFrame
      classId={classId}
      role="teacher"
      chat={
        <LiveRoomPanel
          classId={classId}
          role="teacher"
          handAction={(hand) => <InviteToSpeak speaking={room.speaking} userId={hand.userId} />}
        />
      }
      screen={
        <LiveVideo
          track={room.previews.screen}
          label={LIVE_TEXTS.screenPreview}
          placeholder={LIVE_TEXTS.noScreen}
        />
      }
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
          <TeacherControls room={room} />
          <TeacherSpeakers speaking={room.speaking} />
        </>
      }
      onLeave={room.leave}
    />
  );
}
