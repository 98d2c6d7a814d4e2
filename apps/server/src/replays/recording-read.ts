import fs from 'node:fs/promises';
import path from 'node:path';
import { mediaKindOf } from '@sea/contract/live';
import { RECORDING_MANIFEST } from '@sea/contract/recording';
import { PermanentJobError, type JobLog } from '../jobs/job-worker.ts';
import type { SessionPart } from '../sessions/session-parts.ts';
import type { MediaProbe } from './composition-plan.ts';
import { probeMedia } from './probe-media.ts';
import { ManifestError, parseManifest, type Recording } from './recording-manifest.ts';
import type { RecordingPart } from './recording-parts.ts';
import { recordingDir } from './replay-files.ts';

/** A failure with a reason for the teacher, caused by the recording itself; never retried. */
export class ReplayError extends PermanentJobError {}

export const RECORDING_MISSING = '녹화 파일을 찾을 수 없어 다시보기를 만들 수 없어요.';
export const RECORDING_DAMAGED = '녹화 정보가 손상되어 다시보기를 만들 수 없어요.';
export const RECORDING_FILES_DAMAGED =
  '녹화 파일이 손상되어 다시보기를 만들 수 없어요. 원본 녹화는 지우지 않고 남겨 두었어요.';

/** What reading a session's recording takes: where, with which ffmpeg, how long a probe may stall. */
export type RecordingSource = {
  recordingsDir: string;
  ffmpegPath: string;
  log: JobLog;
  signal: AbortSignal;
  stallMs: () => number;
};

/**
 * Reads the raw recording of each room and measures its files. A room whose recording is missing or damaged
 * is left out (and said) when another one is read: its node may have died before writing anything, or the
 * teacher came back without recording; with none read, the first room's reason fails the job.
 */
export async function readParts(source: RecordingSource, rooms: SessionPart[]): Promise<RecordingPart[]> {
  const parts: RecordingPart[] = [];
  let problem: unknown = null;
  const firstStart = rooms[0]?.startedAt.getTime() ?? 0;
  for (const room of rooms) {
    const rawDir = rawFolder(source.recordingsDir, room.mediaKey);
    let recording: Recording;
    try {
      recording = readRecording(await readManifest(rawDir));
    } catch (error) {
      if (!(error instanceof ReplayError)) throw error;
      problem ??= error;
      if (rooms.length > 1) {
        source.log.warn(
          { mediaKey: room.mediaKey, err: error },
          'a room of the session left out of its replay',
        );
      }
      continue;
    }
    const probes = new Map<string, MediaProbe | null>();
    for (const track of recording.tracks) {
      const file = path.join(rawDir, track.file);
      const { ffmpegPath, signal, stallMs } = source;
      probes.set(
        track.file,
        await probeMedia(ffmpegPath, file, mediaKindOf(track.kind), { signal, stallMs }),
      );
    }
    const offsetMs = Math.max(0, room.startedAt.getTime() - firstStart);
    parts.push({ key: room.mediaKey, offsetMs, recording, probes });
  }
  if (parts.length === 0) throw problem ?? new ReplayError(RECORDING_MISSING);
  return parts;
}

/**
 * The files of the recording that hold bytes but no readable media: damaged (an empty or missing file is a
 * stream that recorded nothing, not damage). Names are `{key}/{file}`.
 */
export async function damagedFiles(
  recordingsDir: string,
  probes: ReadonlyMap<string, MediaProbe | null>,
): Promise<string[]> {
  const damaged: string[] = [];
  for (const [name, probe] of probes) {
    if (probe) continue;
    const stats = await fs.stat(path.join(recordingsDir, name)).catch(() => null);
    if (stats && stats.size > 0) damaged.push(name);
  }
  return damaged;
}

/** A room's raw recording folder; a key that is no folder name means the recording cannot be found. */
export function rawFolder(recordingsDir: string, mediaKey: string): string {
  try {
    return recordingDir(recordingsDir, mediaKey);
  } catch {
    throw new ReplayError(RECORDING_MISSING);
  }
}

function readRecording(manifest: string) {
  try {
    return parseManifest(manifest);
  } catch (error) {
    if (error instanceof ManifestError) throw new ReplayError(RECORDING_DAMAGED);
    throw error;
  }
}

async function readManifest(rawDir: string): Promise<string> {
  try {
    return await fs.readFile(path.join(rawDir, RECORDING_MANIFEST), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ReplayError(RECORDING_MISSING);
    throw error;
  }
}
