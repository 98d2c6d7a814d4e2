import fs from 'node:fs/promises';
import path from 'node:path';
import type { ReplayTimeline } from './replay-timeline.ts';

/**
 * A replay's files, in `REPLAYS_DIR/{session id}/`: the MP4 for download, the HLS playlist and its segments
 * for streaming, and the timeline (pauses cut out) that maps the session's chat onto the replay.
 */
export const REPLAY_FILES = {
  mp4: 'replay.mp4',
  hlsDir: 'hls',
  playlist: 'hls/index.m3u8',
  /** The chapters as a WebVTT chapters track, beside the playlist (its MP4 carries them as chapter atoms). */
  chapters: 'hls/chapters.vtt',
  timeline: 'timeline.json',
} as const;

/** A session's replay folder. */
export function replayDir(replaysDir: string, sessionId: number): string {
  return path.join(replaysDir, String(sessionId));
}

/** A session's raw recording folder (`media_key` is a name the media service made, never a path). */
export function recordingDir(recordingsDir: string, mediaKey: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(mediaKey))
    throw new Error(`not a recording key: ${mediaKey}`);
  return path.join(recordingsDir, mediaKey);
}

/** The replay's timeline, or null when it has none (not processed, or deleted). */
export async function readReplayTimeline(
  replaysDir: string,
  sessionId: number,
): Promise<ReplayTimeline | null> {
  try {
    const text = await fs.readFile(
      path.join(replayDir(replaysDir, sessionId), REPLAY_FILES.timeline),
      'utf8',
    );
    return JSON.parse(text) as ReplayTimeline;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Removes a session's replay files (and any unfinished attempt's). */
export async function removeReplayFiles(replaysDir: string, sessionId: number): Promise<void> {
  await fs.rm(replayDir(replaysDir, sessionId), { recursive: true, force: true });
  await removeUnfinished(replaysDir, sessionId);
}

/** Removes the work folders of a session's unfinished attempts (`{id}.part-*`). */
export async function removeUnfinished(replaysDir: string, sessionId: number): Promise<void> {
  const names = await fs.readdir(replaysDir).catch(() => [] as string[]);
  const prefix = `${sessionId}.part-`;
  await Promise.all(
    names
      .filter((name) => name.startsWith(prefix))
      .map((name) => fs.rm(path.join(replaysDir, name), { recursive: true, force: true })),
  );
}
