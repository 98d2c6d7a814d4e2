import { Link } from 'react-router';
import type { PreferredLayer } from '@sea/contract/live';
import { paths } from '../../../config/paths.ts';
import type { StudentRoom } from '../hooks/use-student-room.ts';
import { DATA_SAVING_LAYER } from '../data-saving.ts';
import { LIVE_TEXTS } from '../texts.ts';
import { DataSavingSwitch } from './data-saving-switch.tsx';
import { LiveVideo } from './live-video.tsx';
import { RecordingIndicator } from './recording-indicator.tsx';
import { TeacherAudio } from './teacher-audio.tsx';
import { ConnectionStatus } from './teacher-controls.tsx';
import styles from './live.module.css';

/** Menu order: auto first, then highest to lowest. */
const MENU: PreferredLayer[] = ['auto', 'f', 'h', 'q'];

/**
 * The student's main area: the teacher's screen share. A refused entry (class not live, no access) shows why
 * over the whole area, with the way back to the dashboard. The teacher's audio is {@link StudentAudio}, kept
 * outside the stage so that it plays whatever the stage shows (a material alone leaves this area out).
 */
export function StudentStage({ room, classId }: { room: StudentRoom; classId: number }) {
  if (room.error) {
    return (
      <div className={styles.message} role="alert">
        <p>{room.error.message}</p>
        <Link className={styles.link} to={paths.dashboardStudent.to(classId)}>
          {LIVE_TEXTS.toDashboard}
        </Link>
      </div>
    );
  }
  return (
    <LiveVideo
      track={room.tracks.screenShareVideo}
      label={LIVE_TEXTS.teacherScreen}
      placeholder={LIVE_TEXTS.waitingScreen}
    />
  );
}

/** The teacher's audio, microphone and system sound ('tap to hear' when autoplay is blocked). */
export function StudentAudio({ room }: { room: StudentRoom }) {
  const audio = [room.tracks.webcamAudio, room.tracks.screenShareAudio].filter(
    (track): track is MediaStreamTrack => track !== undefined,
  );
  return <TeacherAudio tracks={audio} />;
}

/**
 * The room's status bar under the screen (not over it, where it covered the shared screen's corner): the
 * connection status, the viewer count, the quality menu (fixed at 저화질 in '데이터 절약 모드') and the
 * data-saving switch. Nothing while the entry is refused.
 */
export function StudentStatus({ room }: { room: StudentRoom }) {
  if (room.error) return null;
  return (
    <div className={styles.statusBar}>
      <ConnectionStatus connection={room.connection} />
      <span className={styles.viewers}>{LIVE_TEXTS.viewerCount(room.viewerCount)}</span>
      <RecordingIndicator state={room.recording} audience="student" interrupted={room.outage !== null} />
      <label className={styles.quality}>
        {LIVE_TEXTS.quality}
        <select
          value={room.dataSaving ? DATA_SAVING_LAYER : room.layer}
          disabled={room.dataSaving}
          title={room.dataSaving ? LIVE_TEXTS.dataSaving.qualityFixed : undefined}
          onChange={(event) => room.setLayer(event.target.value as PreferredLayer)}
        >
          {MENU.map((layer) => (
            <option key={layer} value={layer}>
              {LIVE_TEXTS.layers[layer]}
            </option>
          ))}
        </select>
      </label>
      <DataSavingSwitch on={room.dataSaving} onChange={room.setDataSaving} />
    </div>
  );
}

/** The teacher's webcam in the small area. */
export function StudentWebcam({ room }: { room: StudentRoom }) {
  return (
    <LiveVideo
      track={room.tracks.webcamVideo}
      label={LIVE_TEXTS.teacherWebcam}
      placeholder={LIVE_TEXTS.waitingWebcam}
      fit="cover"
    />
  );
}
