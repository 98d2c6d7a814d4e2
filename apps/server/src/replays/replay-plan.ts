import path from 'node:path';
import type { JobLog } from '../jobs/job-worker.ts';
import type { SessionPart } from '../sessions/session-parts.ts';
import { boardFrames, indexBoard } from './board-frames.ts';
import { type BoardPictures, type PageReader, renderBoardPictures } from './board-pictures.ts';
import { type CompositionPlan, planComposition, withBoard } from './composition-plan.ts';
import { findGaps, gapsAsPauses, MIN_GAP_MS, type RecordingGap } from './recording-gaps.ts';
import { type JoinedRecording, joinParts } from './recording-parts.ts';
import { readParts, type RecordingSource } from './recording-read.ts';
import { toReplayMs } from './replay-timeline.ts';
import type { SessionBoard } from '@sea/contract/board';

/** Reads a session's board with its moments placed by `toOffset` (milliseconds of the replay). */
export type BoardReader = (sessionId: number, toOffset: (at: Date) => number) => Promise<SessionBoard>;

/** A session's recording, read and planned. */
export type PlannedRecording = {
  joined: JoinedRecording;
  /** The stretches not recorded although the lecture went on (cut out like pauses), in order. */
  gaps: RecordingGap[];
  plan: CompositionPlan;
};

/**
 * Reads the raw recording of each of the session's rooms, joins them and plans the replay: the gaps between
 * rooms and in the files are cut out like the teacher's pauses. A recording without its end (the lecture still
 * runs, or its node died) ends at its last media.
 */
export async function planRecording(
  source: RecordingSource,
  rooms: SessionPart[],
): Promise<PlannedRecording> {
  const joined = joinParts(await readParts(source, rooms));
  const gaps = [
    ...joined.gaps.filter((gap) => gap.untilMs - gap.fromMs >= MIN_GAP_MS),
    ...findGaps(joined.recording, joined.probes),
  ].sort((a, b) => a.fromMs - b.fromMs);
  const recording = { ...joined.recording, pauses: [...joined.recording.pauses, ...gapsAsPauses(gaps)] };
  const planned = planComposition(recording, joined.probes);
  return { joined, gaps, plan: { ...planned, timeline: { ...planned.timeline, gaps } } };
}

/**
 * The session time (ms) up to which a recording still being made is settled: every stream still on has its
 * media there (the earliest of their ends; without any, the last media). What lies before it will not change,
 * but for a gap found later (which a window's key tells).
 */
export function settledUntil(joined: JoinedRecording): number {
  const ends = joined.recording.tracks.map((track) => {
    const probe = joined.probes.get(track.file);
    return { open: track.endMs === null, endMs: track.startMs + Math.max(0, probe?.endMs ?? 0) };
  });
  const open = ends.filter((e) => e.open).map((e) => e.endMs);
  return open.length > 0 ? Math.min(...open) : Math.max(0, ...ends.map((e) => e.endMs));
}

/**
 * Renders the session's board for the replay's picture (`board-frames.ts`, `board-pictures.ts`) into the
 * windows' folder (pictures made before stay): the plan with the board's stretches on stage and the pictures,
 * or null when there is no board (none given, or never on stage).
 */
export async function boardPictures(
  board: { read: BoardReader; pages: PageReader } | undefined,
  session: { sessionId: number; startedAt: Date },
  plan: CompositionPlan,
  windowsDir: string,
  run: { signal: AbortSignal; log: JobLog },
): Promise<{ plan: CompositionPlan; pictures: BoardPictures } | null> {
  if (!board) return null;
  const start = session.startedAt.getTime();
  const toOffset = (at: Date) => Math.round(toReplayMs(plan.timeline, at.getTime() - start));
  const indexed = indexBoard(await board.read(session.sessionId, toOffset));
  const screens = plan.screens.map((p) => ({ fromMs: p.atMs, untilMs: p.untilMs }));
  const frames = boardFrames(indexed, plan.durationMs, screens);
  const dir = path.join(windowsDir, 'board');
  const pictures = await renderBoardPictures(indexed, frames, dir, board.pages, run.signal);
  if (pictures === null) return null;
  run.log.info({ sessionId: session.sessionId, frames: frames.length }, 'board pictures made');
  return { plan: withBoard(plan, pictures.onStage), pictures };
}
