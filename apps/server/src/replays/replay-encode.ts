import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { joinAdts } from './adts.ts';
import { type BoardPictures, writeBoardList } from './board-pictures.ts';
import type { CompositionPlan } from './composition-plan.ts';
import { audioArgs, hlsArgs, joinArgs, videoArgs } from './ffmpeg-args.ts';
import { probeMedia } from './probe-media.ts';
import { REPLAY_FILES } from './replay-files.ts';
import { AUDIO_EDGE_MS, type ReplayWindow, replayWindows, windowKey, windowParts } from './replay-windows.ts';
import { progressReader, runFfmpeg } from './run-ffmpeg.ts';

/** What encoding a replay's windows takes besides its plan. */
export type WindowRun = {
  ffmpegPath: string;
  /** The raw recordings' folder: the plan's files are `{room key}/{file}` in it. */
  inputDir: string;
  fontFile: string | null;
  /** The board's pictures when the plan has the board on stage. */
  board?: BoardPictures | null;
  /** Where the encoded windows are kept (`windowsDir`): those of an earlier run with the same key are used. */
  windowsDir: string;
  windowMs?: number;
  threads: number | null;
  signal: AbortSignal;
  /** The watchdog's bounds (JobTuning). */
  stallMinMs: number;
  stallMaxMs: number;
  /** The share (0-1) of the replay's windows done. */
  onShare?(share: number): void;
  /** Asked before each window that is not encoded yet: false stops (the lecture ahead of which they are made ended). */
  goOn?(): Promise<boolean>;
};

/** What encoding a replay takes besides its plan. */
export type EncodeRun = WindowRun & {
  /** The windows are encoded; the joining and the HLS copy start. */
  onEncoded(): Promise<void>;
};

/** A window's files in the windows' folder. */
export type EncodedWindow = { window: ReplayWindow; video: string; audio: string; reused: boolean };

/** The share of the recording ffmpeg may take without progress, at the speed it has shown so far. */
const STALL_SHARE = 0.1;
/** A made replay's length may differ from the plan's by this share (and a few frames on a short one). */
const LENGTH_TOLERANCE = 0.02;
const LENGTH_TOLERANCE_MIN_MS = 100;

/** The replay's MP4 does not last as long as what was recorded: it is not kept. */
export class ReplayLengthError extends Error {}

/**
 * Encodes the plan's windows that are not in the windows' folder yet (`replay-windows.ts`): all of them, or
 * with `settledMs` only those that end before it (while the lecture runs, the last window is never encoded).
 * Each window's picture and sound are written under a temporary name and renamed, so a window in the folder is
 * whole. Returns the windows there, in order; stops early when `goOn` says so.
 */
export async function encodeWindows(
  plan: CompositionPlan,
  run: WindowRun,
  settledMs?: number,
): Promise<EncodedWindow[]> {
  const nameFile = path.join(run.windowsDir, `name-${randomUUID().slice(0, 8)}.txt`);
  // Made with the first window to encode: a round with nothing to encode leaves no folder behind.
  let prepared = false;
  const prepare = async () => {
    if (prepared) return;
    await fs.mkdir(run.windowsDir, { recursive: true });
    await fs.writeFile(nameFile, plan.teacherNickname);
    prepared = true;
  };
  const windows = replayWindows(plan.durationMs, run.windowMs).filter(
    (w) => settledMs === undefined || (!w.last && w.untilMs + AUDIO_EDGE_MS <= settledMs),
  );
  const done: EncodedWindow[] = [];
  let doneMs = 0;
  try {
    for (const window of windows) {
      const key = windowKey(plan, window, { board: run.board?.shows ?? [], fontFile: run.fontFile });
      const base = path.join(run.windowsDir, `${String(window.index).padStart(5, '0')}-${key}`);
      const files = { window, video: `${base}.mp4`, audio: `${base}.aac` };
      const reused = (await exists(files.video)) && (await exists(files.audio));
      if (!reused) {
        if (run.goOn && !(await run.goOn())) break;
        await prepare();
        await encodeWindow(plan, window, files, { ...run, nameFile }, (ms) =>
          run.onShare?.((doneMs + ms) / plan.durationMs),
        );
      }
      done.push({ ...files, reused });
      doneMs += window.untilMs - window.fromMs;
      run.onShare?.(doneMs / plan.durationMs);
    }
  } finally {
    if (prepared) await fs.rm(nameFile, { force: true });
  }
  return done;
}

/**
 * Encodes the plan into `work`: its windows (those encoded while the lecture ran are used), joined into the
 * MP4 by copying, then its HLS copy; then checks that the MP4 lasts as long as the plan (within 2 %) before
 * anyone deletes the raw recording for it.
 */
export async function encodeReplay(plan: CompositionPlan, work: string, run: EncodeRun): Promise<void> {
  const { ffmpegPath, signal } = run;
  const windows = await encodeWindows(plan, run);
  await run.onEncoded();
  const stallMs = stallWatch(plan.durationMs, run);
  const mp4 = path.join(work, REPLAY_FILES.mp4);
  const audio = path.join(work, 'audio.aac');
  const list = path.join(work, 'video.ffconcat');
  await joinAdts(
    windows.map(({ window, audio: file }) => {
      const { dropFrames, keepFrames } = windowParts(plan, window);
      return { file, drop: dropFrames, keep: keepFrames };
    }),
    audio,
  );
  const entries = windows.map(({ video }) => `file ${ffconcatPath(video)}`);
  await fs.writeFile(list, `ffconcat version 1.0\n${entries.join('\n')}\n`);
  await runFfmpeg(ffmpegPath, joinArgs(list, audio, mp4), { signal, stallMs });
  await fs.rm(audio);
  await fs.rm(list);
  await runFfmpeg(ffmpegPath, hlsArgs(mp4, path.join(work, REPLAY_FILES.hlsDir)), { signal, stallMs });
  await fs.writeFile(path.join(work, REPLAY_FILES.timeline), JSON.stringify(plan.timeline));
  const made = await probeMedia(ffmpegPath, mp4, 'video', { signal, stallMs });
  const tolerance = Math.max(LENGTH_TOLERANCE * plan.durationMs, LENGTH_TOLERANCE_MIN_MS);
  if (!made || Math.abs(made.endMs - plan.durationMs) > tolerance) {
    throw new ReplayLengthError(
      `the replay lasts ${made?.endMs ?? 0} ms where ${plan.durationMs} ms were recorded: not kept`,
    );
  }
}

/** Encodes one window's picture and sound, each watched by the watchdog, into their files. */
async function encodeWindow(
  plan: CompositionPlan,
  window: ReplayWindow,
  files: { video: string; audio: string },
  run: WindowRun & { nameFile: string },
  onMs: (ms: number) => void,
): Promise<void> {
  const { video, audio } = windowParts(plan, window);
  const { ffmpegPath, signal } = run;
  const temporary = `.${randomUUID().slice(0, 8)}.tmp`;
  const boardList =
    video.board.length > 0 && run.board
      ? await writeBoardList(run.board, window.fromMs, window.untilMs, `window-${window.index}${temporary}`)
      : null;
  const started = performance.now();
  let speed = 1;
  const stallMs = stallWatch(video.durationMs, run, () => speed);
  try {
    const options = { ...run, boardList, output: `${files.video}${temporary}` };
    await runFfmpeg(ffmpegPath, videoArgs(video, options), {
      signal,
      stallMs,
      onLine: progressReader((ms) => {
        const elapsed = performance.now() - started;
        if (ms > 0 && elapsed > 0) speed = ms / elapsed;
        onMs(Math.min(ms, video.durationMs));
      }),
    });
    const sound = { ...run, output: `${files.audio}${temporary}` };
    await runFfmpeg(ffmpegPath, audioArgs(audio, sound), { signal, stallMs });
    await fs.rename(options.output, files.video);
    await fs.rename(sound.output, files.audio);
  } finally {
    for (const name of [`${files.video}${temporary}`, `${files.audio}${temporary}`, boardList]) {
      if (name) await fs.rm(name, { force: true });
    }
  }
}

/** The watchdog's time without progress: a tenth of the media at the speed shown so far, within the bounds. */
function stallWatch(
  durationMs: number,
  bounds: { stallMinMs: number; stallMaxMs: number },
  speed: () => number = () => 1,
): () => number {
  return () =>
    Math.round(
      Math.min(bounds.stallMaxMs, Math.max(bounds.stallMinMs, (STALL_SHARE * durationMs) / speed())),
    );
}

/** A path as an ffconcat `file` line takes it (quoted, its quotes escaped). */
function ffconcatPath(file: string): string {
  return `'${file.replace(/'/g, "'\\''")}'`;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
