import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  MediaControlBar,
  MediaController,
  MediaFullscreenButton,
  MediaLoadingIndicator,
  MediaMuteButton,
  MediaPlayButton,
  MediaPlaybackRateButton,
  MediaSeekBackwardButton,
  MediaSeekForwardButton,
  MediaTimeDisplay,
  MediaTimeRange,
  MediaVolumeRange,
} from 'media-chrome/react';
import { apiUrl } from '../../../lib/http.ts';
import { installKoreanPlayerTexts } from '../player-korean.ts';
import type { GapMark } from '../session-status.ts';
import { attachReplaySource } from '../replay-source.ts';
import { REPLAY_TEXTS } from '../texts.ts';
import styles from './replay-player.module.css';

installKoreanPlayerTexts();

/** The speeds the rate button steps through (0.5x to 2x). */
export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.25, 1.5, 2];
const SEEK_STEP_S = 10;

export type ReplayPlayerProps = {
  hlsUrl: string;
  mp4Url: string | null;
  /** Where playback starts, in seconds (the caller's resume point). */
  startS: number;
  /** The video element once it is there (and null when it goes), for the chat sync and the watch beats. */
  onVideo: (video: HTMLVideoElement | null) => void;
  /** Where the recording has gaps, marked under the seek bar. */
  gaps?: readonly GapMark[];
  /** Shown under the controls, on the player's width (the chapters' marks). */
  children?: ReactNode;
};

/** The WebVTT chapters track the replay job writes beside the playlist, reached with the playlist's signature. */
export function chaptersTrackUrl(hlsUrl: string): string {
  return hlsUrl.replace('/hls/index.m3u8', '/hls/chapters.vtt');
}

/**
 * The replay's video in media-chrome's controls: play, seeking (the bar, ±10 s buttons), time, volume, speed
 * 0.5-2x, full screen, and media-chrome's keyboard shortcuts (space/k play, arrows seek and volume, f full
 * screen, m mute) while the player has focus. The HLS stream plays through hls.js (`attachReplaySource`).
 */
export function ReplayPlayer({ hlsUrl, mp4Url, startS, onVideo, gaps = [], children }: ReplayPlayerProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const video = videoRef.current;
    if (video === null) return undefined;
    onVideo(video);
    const detach = attachReplaySource(video, { hlsUrl, mp4Url, startS, onFatal: () => setFailed(true) });
    return () => {
      detach();
      onVideo(null);
    };
  }, [hlsUrl, mp4Url, startS, onVideo]);

  return (
    <div className={styles.frame}>
      <MediaController className={styles.controller} aria-label={REPLAY_TEXTS.page.player}>
        <video ref={videoRef} slot="media" className={styles.video} playsInline preload="metadata">
          {/* The chapters for the browser's own player and assistive tools; the page lists them from the API. */}
          <track
            kind="chapters"
            src={apiUrl(chaptersTrackUrl(hlsUrl))}
            srcLang="ko"
            label={REPLAY_TEXTS.page.chapters}
          />
        </video>
        <MediaLoadingIndicator slot="centered-chrome" noAutohide />
        <MediaControlBar className={styles.bar}>
          <MediaPlayButton />
          <MediaSeekBackwardButton seekOffset={SEEK_STEP_S} />
          <MediaSeekForwardButton seekOffset={SEEK_STEP_S} />
          <MediaTimeRange />
          {/* Not a toggle to the remaining time: as a button its spoken name would differ from its digits. */}
          <MediaTimeDisplay className={styles.time} showDuration noToggle />
          <MediaMuteButton />
          <MediaVolumeRange className={styles.volume} />
          <MediaPlaybackRateButton rates={PLAYBACK_RATES} />
          <MediaFullscreenButton />
        </MediaControlBar>
      </MediaController>
      {gaps.length > 0 && (
        <ul className={styles.gaps} aria-label={REPLAY_TEXTS.gapMarks}>
          {gaps.map((gap) => (
            <li
              key={gap.label}
              className={styles.gap}
              style={{ left: `${gap.atPercent}%` }}
              title={gap.label}
            >
              <span className="visually-hidden">{gap.label}</span>
            </li>
          ))}
        </ul>
      )}
      {children}
      {failed && (
        <p role="alert" className={styles.failed}>
          {REPLAY_TEXTS.page.playFailed}
        </p>
      )}
    </div>
  );
}
