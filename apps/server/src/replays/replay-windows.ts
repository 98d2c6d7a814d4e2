import { createHash } from 'node:crypto';
import { type BoardShow, showsIn } from './board-pictures.ts';
import type { CompositionPlan, PlacedFile } from './composition-plan.ts';
import { AAC_FRAME_SAMPLES } from './adts.ts';
import { ENCODING } from './ffmpeg-args.ts';

/**
 * A replay is encoded in windows of this much replay time, each on its own (a video-only MP4 and its sound as
 * AAC frames), then joined by copying: the windows of a lecture are encoded while it runs (`replay-ahead.ts`),
 * and what is left after its end is the last window or two. A window is a whole number of frames (30 fps), of
 * AAC frames (1024 samples at 48 kHz) and of HLS segments (6 s), so the joined replay has one grid of each.
 */
export const WINDOW_MS = 48_000;
/** Every window length is a multiple of this: 48 video frames and 75 AAC frames. */
export const WINDOW_GRID_MS = 1_600;
/**
 * The sound of a window is encoded with this much of its neighbours' on each side (three AAC frames), so that
 * its first and last kept frames are encoded as in one long run and join their neighbours' without a click.
 */
export const AUDIO_EDGE_MS = 64;

/**
 * The version of how a window is made (the filter graphs, `ffmpeg-args.ts`), part of its key: raise it with a
 * change there, so windows made before the change (a server updated during a lecture) are not joined to new ones.
 */
export const WINDOW_FORMAT = 1;

/** A last window shorter than this joins the one before it (a window holds whole frames). */
export const MIN_LAST_WINDOW_MS = 1_000;

/** One window of a replay (replay ms); `last` ends the replay. */
export type ReplayWindow = { index: number; fromMs: number; untilMs: number; last: boolean };

/** The windows of a replay of this length. */
export function replayWindows(durationMs: number, windowMs = WINDOW_MS): ReplayWindow[] {
  if (windowMs <= 0 || windowMs % WINDOW_GRID_MS !== 0) {
    throw new Error(`a replay window of ${windowMs} ms is not a multiple of ${WINDOW_GRID_MS} ms`);
  }
  const windows: ReplayWindow[] = [];
  for (let fromMs = 0, index = 0; fromMs < durationMs; fromMs += windowMs, index += 1) {
    const untilMs = Math.min(durationMs, fromMs + windowMs);
    const before = windows.at(-1);
    if (before && untilMs - fromMs < MIN_LAST_WINDOW_MS) Object.assign(before, { untilMs, last: true });
    else windows.push({ index, fromMs, untilMs, last: untilMs === durationMs });
  }
  return windows;
}

/**
 * The plan of a stretch of the replay (replay ms), on its own clock from 0: the files that play in it, each
 * cut to it (`skipMs` where it starts inside a file), its layouts and the board's stretches.
 */
export function windowPlan(plan: CompositionPlan, fromMs: number, untilMs: number): CompositionPlan {
  const cut = (files: PlacedFile[]) =>
    files.flatMap((p): PlacedFile[] => {
      const at = Math.max(p.atMs, fromMs);
      const until = Math.min(p.untilMs, untilMs);
      if (until <= at) return [];
      return [{ ...p, atMs: at - fromMs, untilMs: until - fromMs, skipMs: (p.skipMs ?? 0) + at - p.atMs }];
    });
  const spans = <T extends { fromMs: number; untilMs: number }>(list: readonly T[]) =>
    list.flatMap((s): T[] => {
      const from = Math.max(s.fromMs, fromMs);
      const until = Math.min(s.untilMs, untilMs);
      return until > from ? [{ ...s, fromMs: from - fromMs, untilMs: until - fromMs }] : [];
    });
  return {
    ...plan,
    durationMs: untilMs - fromMs,
    screens: cut(plan.screens),
    webcams: cut(plan.webcams),
    audio: cut(plan.audio),
    board: spans(plan.board),
    layouts: spans(plan.layouts),
    skipped: [],
  };
}

/**
 * What encoding a window takes: its picture's plan, its sound's plan (with the edges) and, of the sound's AAC
 * frames, which ones are the window's own: the encoder's priming frame and the lead-in are dropped, the
 * lead-out is not kept (the last window keeps every frame to the end).
 */
export function windowParts(plan: CompositionPlan, window: ReplayWindow) {
  const soundFrom = window.index === 0 ? 0 : window.fromMs - AUDIO_EDGE_MS;
  const soundUntil = window.last ? window.untilMs : window.untilMs + AUDIO_EDGE_MS;
  const frames = (ms: number) => (ms * ENCODING.sampleRate) / 1000 / AAC_FRAME_SAMPLES;
  return {
    video: windowPlan(plan, window.fromMs, window.untilMs),
    audio: windowPlan(plan, soundFrom, Math.min(soundUntil, plan.durationMs)),
    /** The priming frame, then the lead-in. */
    dropFrames: 1 + frames(window.fromMs - soundFrom),
    keepFrames: window.last ? null : frames(window.untilMs - window.fromMs),
  };
}

/**
 * The key of a window's encoding: a digest of everything its files are made of (its stretch, the files with
 * their cuts, the layouts, the board's pictures by what they show, the name drawn on black, the encoder's
 * settings). A window encoded while the lecture ran is used at the end only if its key is still the same: a
 * file that grew, a gap found later or a page drawn on since gives another key, and the window is encoded again.
 */
export function windowKey(
  plan: CompositionPlan,
  window: ReplayWindow,
  extra: { board: readonly BoardShow[]; fontFile: string | null },
): string {
  const { video, audio, dropFrames, keepFrames } = windowParts(plan, window);
  const files = (list: PlacedFile[]) => list.map((p) => [p.file, p.kind, p.atMs, p.untilMs, p.skipMs ?? 0]);
  const facts = {
    format: WINDOW_FORMAT,
    encoding: ENCODING,
    window,
    name: plan.teacherNickname,
    font: extra.fontFile,
    video: {
      durationMs: video.durationMs,
      screens: files(video.screens),
      webcams: files(video.webcams),
      sizes: [...video.screens, ...video.webcams].map((p) => [p.width, p.height]),
      layouts: video.layouts,
      board: video.board,
      pictures:
        video.board.length > 0
          ? showsIn(extra.board, window.fromMs, window.untilMs).map((s) => [s.signature, s.fromMs, s.untilMs])
          : [],
    },
    audio: { durationMs: audio.durationMs, files: files(audio.audio), dropFrames, keepFrames },
  };
  return createHash('sha256').update(JSON.stringify(facts)).digest('hex').slice(0, 20);
}
