import { Button } from '../../../components/ui/button.tsx';
import type { TeacherRoom } from '../hooks/use-teacher-room.ts';
import { LIVE_TEXTS } from '../texts.ts';
import { LectureClock } from './lecture-clock.tsx';
import { RecordingIndicator } from './recording-indicator.tsx';
import { ON_STATES, TOGGLES, type ToggleName, type ToggleState } from '../toggles.ts';
import styles from './live.module.css';

const BAD_STATES: ToggleState[] = ['failed', 'captureFailed', 'unsupported'];

/**
 * The text beside a toggle: the stream's state, or why it could not capture (per toggle). A published stream
 * shows as stopped while the connection is lost.
 */
function stateText(name: ToggleName, state: ToggleState, lost: boolean): string {
  if (lost && state === 'published') return LIVE_TEXTS.stream.interrupted;
  if (state === 'captureFailed' || state === 'cancelled' || state === 'unsupported') {
    const texts: { failed: string; cancelled?: string; unsupported?: string } = LIVE_TEXTS.capture[name];
    return (state === 'captureFailed' ? undefined : texts[state]) ?? texts.failed;
  }
  return LIVE_TEXTS.stream[state];
}

/**
 * The teacher's four toggles with each stream's status, the connection status, the viewer count, the
 * lecture's elapsed time (from `startedAt`, its session's start, once known), and the recording's state with
 * its pause / resume control; while the connection is lost, what is published and recorded shows as stopped.
 */
export function TeacherControls({
  room,
  startedAt = null,
}: {
  room: TeacherRoom;
  startedAt?: string | null;
}) {
  return (
    <div className={styles.controls}>
      <div className={styles.statusLine}>
        <ConnectionStatus connection={room.connection} />
        <span className={styles.viewers}>{LIVE_TEXTS.viewerCount(room.viewerCount)}</span>
        <LectureClock startedAt={startedAt} />
        <RecordingIndicator state={room.recording} audience="teacher" interrupted={room.outage !== null} />
        {room.recording?.recording && (
          <Button
            size="sm"
            variant="secondary"
            // Cut off, a pause could not reach the media service.
            disabled={room.recordingBusy || room.error !== null || room.outage !== null}
            onClick={room.toggleRecording}
          >
            {room.recording.paused ? LIVE_TEXTS.recording.resume : LIVE_TEXTS.recording.pause}
          </Button>
        )}
      </div>
      {room.error && (
        <p role="alert" className={styles.error}>
          {room.error}
        </p>
      )}
      <ul className={styles.toggles}>
        {TOGGLES.map((name) => {
          const state = room.toggles[name];
          const on = ON_STATES.includes(state);
          const label = LIVE_TEXTS.toggle[name];
          return (
            <li key={name} className={styles.toggle}>
              <Button
                size="sm"
                variant={on ? 'primary' : 'secondary'}
                aria-pressed={on}
                disabled={!room.ready || room.error !== null}
                onClick={() => room.toggle(name)}
              >
                {on ? LIVE_TEXTS.turnOff(label) : LIVE_TEXTS.turnOn(label)}
              </Button>
              <span
                className={BAD_STATES.includes(state) ? styles.stateBad : styles.state}
                data-toggle={name}
              >
                {stateText(name, state, room.outage !== null)}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The connection's status text (연결 중 / 연결됨 / 연결 끊김 / 연결 실패), announced politely. */
export function ConnectionStatus({ connection }: { connection: TeacherRoom['connection'] }) {
  return (
    <span role="status" aria-label={LIVE_TEXTS.connectionLabel} className={styles[connection]}>
      {LIVE_TEXTS.connection[connection]}
    </span>
  );
}
