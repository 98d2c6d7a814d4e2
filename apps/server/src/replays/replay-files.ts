import fs from 'node:fs/promises';
import path from 'node:path';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import type { ReplayTimeline } from './replay-timeline.ts';

/**
 * A replay's files, under `{session id}/` of the replays' store (REPLAYS_DIR, or the bucket's `replays/`): the
 * MP4 for download, the HLS playlist and its segments for streaming, and the timeline (pauses cut out) that
 * maps the session's chat onto the replay. A replay is made in a work folder on the local disk
 * (`REPLAYS_DIR/{id}.part-*`) and moved into the store whole.
 */
export const REPLAY_FILES = {
  mp4: 'replay.mp4',
  hlsDir: 'hls',
  playlist: 'hls/index.m3u8',
  /** The chapters as a WebVTT chapters track, beside the playlist (its MP4 carries them as chapter atoms). */
  chapters: 'hls/chapters.vtt',
  timeline: 'timeline.json',
} as const;

/** A file of a session's replay, as the replays' store keys it (`12/hls/index.m3u8`). */
export function replayKey(sessionId: number, file: string): string {
  return `${sessionId}/${file}`;
}

/** A session's replay folder on the local disk (the local driver's, and tests'). */
export function replayDir(replaysDir: string, sessionId: number): string {
  return path.join(replaysDir, String(sessionId));
}

/**
 * The local folder of a session's replay windows encoded so far (`replay-windows.ts`), beside the work folders:
 * `REPLAYS_DIR/{id}.windows`. It goes once the replay is made, or with the session.
 */
export function windowsDir(replaysDir: string, sessionId: number): string {
  return path.join(replaysDir, `${sessionId}.windows`);
}

/** A session's raw recording folder (`media_key` is a name the media service made, never a path). */
export function recordingDir(recordingsDir: string, mediaKey: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(mediaKey))
    throw new Error(`not a recording key: ${mediaKey}`);
  return path.join(recordingsDir, mediaKey);
}

/** The replay's timeline, or null when it has none (not processed, or deleted). */
export async function readReplayTimeline(
  replays: FileStore,
  sessionId: number,
): Promise<ReplayTimeline | null> {
  const bytes = await replays.read(replayKey(sessionId, REPLAY_FILES.timeline));
  return bytes === null ? null : (JSON.parse(bytes.toString('utf8')) as ReplayTimeline);
}

/**
 * Removes a session's replay files from the store (and any unfinished attempt's work folder, and the windows
 * encoded for it).
 */
export async function removeReplayFiles(
  replays: FileStore,
  workDir: string,
  sessionId: number,
): Promise<void> {
  await replays.removeAll(String(sessionId));
  await removeUnfinished(workDir, sessionId);
  await fs.rm(windowsDir(workDir, sessionId), { recursive: true, force: true });
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
