import { useState, type ReactNode } from 'react';
import { CLASS_TEXTS } from '../texts.ts';
import { useClass } from '../api/get-class.ts';
import { LeaveClassroomButton } from './leave-classroom-button.tsx';
import styles from './live-room-frame.module.css';

const texts = CLASS_TEXTS.live;

/** The corners the webcam's picture moves through, clockwise from the bottom right. */
const CORNERS = ['bottom-right', 'bottom-left', 'top-left', 'top-right'] as const;

export type LiveRoomFrameProps = {
  classId: number;
  role: 'teacher' | 'student';
  /** The screen-share video (main area). Empty until the media feature fills it. */
  screen?: ReactNode;
  /** The teacher's webcam video (small area). */
  webcam?: ReactNode;
  /** A status line right under the screen (the student's connection, viewers and quality), clear of it. */
  status?: ReactNode;
  /** The chat panel (side area). */
  chat?: ReactNode;
  /** Teacher only: the four publish toggles (webcam, screen share, microphone, system audio). */
  controls?: ReactNode;
  /** Teacher only: runs when the teacher confirms leaving, before going to the dashboard (ends the live state). */
  onLeave?: () => void | Promise<void>;
  /** The teacher's '잠시 나가기': leaves the room without ending the lecture. */
  onStepOut?: () => void | Promise<void>;
};

/**
 * The frame of both live rooms (dark theme): a main area for the screen share with a small webcam area,
 * the class title and instructor, a side area for the chat and, for the teacher, the publish toggles and
 * 'leave classroom'. The video and control areas are slots that the live-media feature fills; until then
 * they say where the picture will appear.
 */
export function LiveRoomFrame({
  classId,
  role,
  screen,
  webcam,
  status,
  chat,
  controls,
  onLeave,
  onStepOut,
}: LiveRoomFrameProps) {
  const query = useClass(classId);
  const [corner, setCorner] = useState(0);
  return (
    <div className={styles.room}>
      <div className={styles.stage}>
        <section className={styles.screen} aria-label={texts.screenLabel} data-slot="screen">
          {screen ?? <p className={styles.placeholder}>{texts.screenSlot}</p>}
          <div
            className={styles.webcam}
            aria-label={texts.webcamLabel}
            role="region"
            data-slot="webcam"
            data-corner={CORNERS[corner]}
          >
            {webcam ?? <p className={styles.placeholder}>{texts.webcamSlot}</p>}
            <button
              type="button"
              className={styles.moveWebcam}
              aria-label={texts.moveWebcam}
              title={texts.moveWebcam}
              onClick={() => setCorner((current) => (current + 1) % CORNERS.length)}
            >
              ⤧
            </button>
          </div>
        </section>
        {status}
        <div className={styles.info}>
          <div>
            {query.isError ? (
              <p role="alert" className={styles.error}>
                {texts.loadFailed}
              </p>
            ) : (
              <>
                <h1 className={styles.title}>{query.data?.name ?? CLASS_TEXTS.loading}</h1>
                {query.data && <p className={styles.instructor}>{texts.instructor(query.data.instructor)}</p>}
              </>
            )}
          </div>
          {role === 'teacher' && (
            <div className={styles.teacherBar}>
              <div
                className={styles.controls}
                role="group"
                aria-label={texts.controlsLabel}
                data-slot="controls"
              >
                {controls ?? <p className={styles.placeholder}>{texts.controlsSlot}</p>}
              </div>
              <LeaveClassroomButton
                classId={classId}
                {...(onLeave ? { onLeave } : {})}
                {...(onStepOut ? { onStepOut } : {})}
              />
            </div>
          )}
        </div>
      </div>
      <aside className={styles.side} aria-label={texts.sideLabel} data-slot="chat">
        {chat ?? <p className={styles.placeholder}>{texts.chatSlot}</p>}
      </aside>
    </div>
  );
}
