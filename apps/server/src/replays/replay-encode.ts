import fs from 'node:fs/promises';
import path from 'node:path';
import type { CompositionPlan } from './composition-plan.ts';
import { encodeArgs, hlsArgs } from './ffmpeg-args.ts';
import { probeMedia } from './probe-media.ts';
import { REPLAY_FILES } from './replay-files.ts';
import { progressReader, runFfmpeg } from './run-ffmpeg.ts';

/** What encoding a replay takes besides its plan. */
export type EncodeRun = {
  ffmpegPath: string;
  /** The raw recordings' folder: the plan's files are `{room key}/{file}` in it. */
  inputDir: string;
  fontFile: string | null;
  /** The board's pictures (an ffconcat list) when the plan has the board on stage. */
  boardList?: string | null;
  threads: number | null;
  signal: AbortSignal;
  /** The watchdog's bounds (JobTuning). */
  stallMinMs: number;
  stallMaxMs: number;
  /** The share (0-1) of the encode done, as ffmpeg reports it. */
  onShare(share: number): void;
  /** The encode is done; the HLS copy starts. */
  onEncoded(): Promise<void>;
};

/** The share of the recording ffmpeg may take without progress, at the speed it has shown so far. */
const STALL_SHARE = 0.1;
/** A made replay's length may differ from the plan's by this share (and a few frames on a short one). */
const LENGTH_TOLERANCE = 0.02;
const LENGTH_TOLERANCE_MIN_MS = 100;

/** The replay's MP4 does not last as long as what was recorded: it is not kept. */
export class ReplayLengthError extends Error {}

/**
 * Encodes the plan into `work`: the MP4, then its HLS copy, each run watched by the watchdog (no progress for
 * the time a tenth of the recording takes at the measured speed, within the bounds, kills it); then checks that
 * the MP4 lasts as long as the plan (within 2 %) before anyone deletes the raw recording for it.
 */
export async function encodeReplay(plan: CompositionPlan, work: string, run: EncodeRun): Promise<void> {
  const { ffmpegPath, signal } = run;
  const nameFile = path.join(work, 'name.txt');
  await fs.writeFile(nameFile, plan.teacherNickname);
  const mp4 = path.join(work, REPLAY_FILES.mp4);
  const args = encodeArgs(plan, { ...run, nameFile, output: mp4 });
  const started = performance.now();
  let speed = 1;
  const stallMs = () =>
    Math.round(Math.min(run.stallMaxMs, Math.max(run.stallMinMs, (STALL_SHARE * plan.durationMs) / speed)));
  await runFfmpeg(ffmpegPath, args, {
    signal,
    stallMs,
    onLine: progressReader((ms) => {
      const elapsed = performance.now() - started;
      if (ms > 0 && elapsed > 0) speed = ms / elapsed;
      run.onShare(Math.min(ms, plan.durationMs) / plan.durationMs);
    }),
  });
  await run.onEncoded();
  await runFfmpeg(ffmpegPath, hlsArgs(mp4, path.join(work, REPLAY_FILES.hlsDir)), { signal, stallMs });
  await fs.rm(nameFile);
  await fs.writeFile(path.join(work, REPLAY_FILES.timeline), JSON.stringify(plan.timeline));
  const made = await probeMedia(ffmpegPath, mp4, 'video', { signal, stallMs });
  const tolerance = Math.max(LENGTH_TOLERANCE * plan.durationMs, LENGTH_TOLERANCE_MIN_MS);
  if (!made || Math.abs(made.endMs - plan.durationMs) > tolerance) {
    throw new ReplayLengthError(
      `the replay lasts ${made?.endMs ?? 0} ms where ${plan.durationMs} ms were recorded: not kept`,
    );
  }
}
