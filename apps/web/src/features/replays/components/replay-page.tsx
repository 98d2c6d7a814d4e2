import { useCallback, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Breadcrumb } from '../../../components/ui/breadcrumb.tsx';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { apiUrl } from '../../../lib/http.ts';
import { useSession, useSessionChat, useSessionClassroom } from '../api/get-session.ts';
import { formatDuration, formatDateTime } from '../../../lib/format-date-time.ts';
import { sessionTitle } from '../../../lib/session-title.ts';
import { gapMarks, gapsText, sessionStatus } from '../session-status.ts';
import { REPLAY_TEXTS } from '../texts.ts';
import { useMediaDurationMs, useMediaTimeMs } from '../use-media-time.ts';
import { useWatchBeats } from '../use-watch-beats.ts';
import { ReplayChat } from './replay-chat.tsx';
import { ReplayPlayer } from './replay-player.tsx';
import { ReplayRefused } from './replay-refused.tsx';
import styles from './replay-page.module.css';

const texts = REPLAY_TEXTS.page;

/** The player's time and a seek, for what the route adds around it. */
export type PlayerClock = { timeMs: number; seek: (seconds: number) => void };

/**
 * `/dashboard/{role}/{classId}/replays/{sessionId}`: one replay with the session's chat beside it (under it
 * on a phone), resuming where the viewer left off, and the MP4 to download.
 */
export function ReplayPage({
  classId,
  sessionId,
  role,
  className,
  beside,
  timeline,
  study,
}: {
  classId: number;
  sessionId: number;
  role: 'teacher' | 'student';
  /** The class's name, for the breadcrumb (else it says 대시보드 until it is known). */
  className?: string | undefined;
  /** What the route adds under the player, on the player's clock (the board). */
  beside?: (player: PlayerClock) => ReactNode;
  /** What the route puts on the player's timeline, under its controls (the chapters' marks). */
  timeline?: (player: PlayerClock & { durationMs: number }) => ReactNode;
  /** What the route puts in a row under the player, beside each other (the chapters and the notes). */
  study?: (player: PlayerClock) => ReactNode;
}) {
  const session = useSession(classId, sessionId);
  // Asked once the session answered: a stranger's browser then logs one refused request, not three.
  const chat = useSessionChat(classId, sessionId, session.isSuccess);
  const classroom = useSessionClassroom(classId, sessionId, session.isSuccess);
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const onVideo = useCallback((element: HTMLVideoElement | null) => setVideo(element), []);
  const timeMs = useMediaTimeMs(video);
  const durationMs = useMediaDurationMs(video);
  const ready = session.data?.recording.state === 'ready';
  useWatchBeats(classId, sessionId, ready ? video : null);

  const dashboard =
    role === 'teacher' ? paths.dashboardTeacher.to(classId) : paths.dashboardStudent.to(classId);
  const back = (
    <Link className={styles.back} to={dashboard}>
      {texts.backToDashboard}
    </Link>
  );

  if (session.isPending) return <Spinner label={texts.loading} />;
  if (session.data === undefined) {
    const message = isHttpError(session.error) ? session.error.messageKor : null;
    return <ReplayRefused classId={classId} role={role} message={message ?? texts.loadFailed} />;
  }

  const item = session.data;
  const title = sessionTitle(item.recording.title, item.started_at);
  // An untitled replay is named by its date: the heading says it, so the line under it does not again.
  const titled = Boolean(item.recording.title?.trim());
  const gaps = gapsText(item.recording);
  const { hls_url: hlsUrl, mp4_url: mp4Url } = item.recording;
  const seek = (seconds: number) => {
    if (video !== null) video.currentTime = seconds;
  };
  return (
    <Page>
      <Breadcrumb
        items={[
          { label: REPLAY_TEXTS.crumbs.home, to: paths.home.to() },
          { label: className ?? REPLAY_TEXTS.crumbs.dashboard, to: dashboard },
          { label: REPLAY_TEXTS.crumbs.replay },
        ]}
      />
      <header className={styles.header}>
        <div className={styles.heading}>
          <h1 className={styles.title}>{title}</h1>
          <p className={styles.meta}>
            {titled
              ? `${formatDateTime(item.started_at)} · ${formatDuration(item.duration_s)}`
              : formatDuration(item.duration_s)}
          </p>
          {gaps !== null && (
            <p className={styles.gaps}>
              {gaps} <span className={styles.meta}>{REPLAY_TEXTS.gapsHint}</span>
            </p>
          )}
        </div>
        {ready && mp4Url !== null && (
          <a className={buttonClassName({ variant: 'secondary' })} href={apiUrl(mp4Url)} download>
            {texts.download}
          </a>
        )}
      </header>
      {ready && hlsUrl !== null ? (
        <div className={styles.layout}>
          <ReplayPlayer
            hlsUrl={hlsUrl}
            mp4Url={mp4Url}
            startS={item.resume_s}
            onVideo={onVideo}
            gaps={gapMarks(item.recording.gaps, durationMs / 1000)}
          >
            {timeline?.({ timeMs, durationMs, seek })}
          </ReplayPlayer>
          <div className={styles.chat}>
            <ReplayChat
              messages={chat.data}
              classroom={classroom.data}
              timeMs={timeMs}
              loadFailed={chat.isError}
              classroomFailed={classroom.isError}
              onSeek={seek}
            />
          </div>
          {study !== undefined && <div className={styles.study}>{study({ timeMs, seek })}</div>}
          {beside?.({ timeMs, seek })}
        </div>
      ) : (
        <div role="status">
          <EmptyState message={item.recording.state === 'none' ? texts.notRecorded : texts.notReady}>
            <p className={styles.state}>{sessionStatus(item.recording).label}</p>
            {back}
          </EmptyState>
        </div>
      )}
    </Page>
  );
}
