import type { BoardLayout } from '@sea/contract/board';
import type { StreamKind } from '@sea/contract/live';
import type { Recording } from './recording-manifest.ts';
import { buildTimeline, nextCutMs, type ReplayTimeline, toReplayMs } from './replay-timeline.ts';

/** The replay's picture. */
export const FRAME = { width: 1280, height: 720 } as const;
/** The webcam's corner picture over a screen share: its width, and its margin from the bottom right. */
export const CORNER = { width: 320, marginPx: 24 } as const;
/**
 * The page beside the screen share (`side`): the frame's two halves, the screen share fitted in the left one on
 * black and the page in the right one, as the live room's stage puts them.
 */
export const SIDE_BOX = { width: FRAME.width / 2, height: FRAME.height } as const;

/** What one file measured: where its media ends (ms of media time) and, for video, its first picture size. */
export type MediaProbe = { endMs: number; width: number | null; height: number | null };

/** One file placed on the replay's timeline (replay ms). */
export type PlacedFile = {
  file: string;
  kind: StreamKind;
  /** Replay time where the file starts playing (its media time 0, or `skipMs`). */
  atMs: number;
  /** The file plays from `atMs` to `untilMs`. */
  untilMs: number;
  /**
   * Media time skipped at its start (a window of the replay that starts inside the file): `atMs` then shows the
   * file's media time `skipMs`. Absent: 0.
   */
  skipMs?: number;
  /** Its first picture's size (video; null when unknown). */
  width: number | null;
  height: number | null;
};

/** What the picture shows over one stretch of the replay. */
export type Layout =
  'side+webcam' | 'side' | 'board+webcam' | 'board' | 'screen+webcam' | 'screen' | 'webcam' | 'black';
export type LayoutSpan = { fromMs: number; untilMs: number; layout: Layout };
/** A stretch of the replay (ms). */
export type Stretch = { fromMs: number; untilMs: number };
/**
 * A stretch where a page of the board is on stage, and how: `side` beside the screen share (only where one
 * shows), `board` instead of it.
 */
export type BoardStretch = Stretch & { layout: BoardLayout };

/** Everything the ffmpeg command is built from; no I/O went into it but the probes. */
export type CompositionPlan = {
  durationMs: number;
  timeline: ReplayTimeline;
  teacherNickname: string;
  screens: PlacedFile[];
  webcams: PlacedFile[];
  /** Microphone and system audio, mixed. */
  audio: PlacedFile[];
  /**
   * Where a page of the board was on stage (replay ms, in order): its picture replaces the screen share, or in
   * `side` takes the right half beside it.
   */
  board: BoardStretch[];
  /** Consecutive, covering the whole replay. */
  layouts: LayoutSpan[];
  /** Tracks left out: their file was missing or unreadable, or nothing of them was recorded. */
  skipped: string[];
};

/**
 * Plans the replay of a recording. Each file plays where its `track` event puts it, until its `trackEnd` or
 * its own end, whichever is first; the session ends at `end`, or after a crash at the last media. Pauses are
 * cut out. The screen share is the main picture with the webcam in a corner when both are on, the webcam fills
 * the picture alone, and the picture is black with the teacher's name where neither is on.
 */
export function planComposition(
  recording: Recording,
  probes: ReadonlyMap<string, MediaProbe | null>,
): CompositionPlan {
  const skipped: string[] = [];
  const measured = recording.tracks.flatMap((track) => {
    const probe = probes.get(track.file);
    if (!probe) {
      skipped.push(track.file);
      return [];
    }
    const ownEnd = track.startMs + Math.max(0, probe.endMs);
    return [{ track, probe, endMs: track.endMs === null ? ownEnd : Math.min(track.endMs, ownEnd) }];
  });
  const sessionEndMs = recording.endMs ?? Math.max(0, ...measured.map((m) => m.endMs));
  const timeline = buildTimeline(recording.pauses, sessionEndMs);

  const placed: PlacedFile[] = [];
  for (const { track, probe, endMs } of measured) {
    // A stretch never runs into a pause (the recorder ends files there); if one did, it stops at the pause.
    const until = Math.min(endMs, nextCutMs(timeline, track.startMs), sessionEndMs);
    const atMs = toReplayMs(timeline, track.startMs);
    const untilMs = toReplayMs(timeline, until);
    if (until <= track.startMs || untilMs <= atMs) {
      skipped.push(track.file);
      continue;
    }
    placed.push({
      file: track.file,
      kind: track.kind,
      atMs,
      untilMs,
      width: probe.width,
      height: probe.height,
    });
  }
  const ofKind = (...kinds: StreamKind[]) => placed.filter((p) => kinds.includes(p.kind));
  const screens = ofKind('screenShareVideo');
  const webcams = ofKind('webcamVideo');
  return {
    durationMs: timeline.durationMs,
    timeline,
    teacherNickname: recording.teacherNickname,
    screens,
    webcams,
    audio: ofKind('webcamAudio', 'screenShareAudio'),
    board: [],
    layouts: layoutSpans(timeline.durationMs, screens, webcams),
    skipped,
  };
}

/**
 * The plan with the board on stage in these stretches (replay ms): there the board's picture is the main one,
 * instead of the screen share or (`side`, where the screen share shows) beside it, with the webcam in its
 * corner as over a screen share.
 */
export function withBoard(plan: CompositionPlan, board: readonly BoardStretch[]): CompositionPlan {
  const on = board
    .map((s) => ({
      fromMs: Math.max(0, s.fromMs),
      untilMs: Math.min(plan.durationMs, s.untilMs),
      layout: s.layout,
    }))
    .filter((s) => s.untilMs > s.fromMs);
  return { ...plan, board: on, layouts: layoutSpans(plan.durationMs, plan.screens, plan.webcams, on) };
}

/**
 * Stretches shorter than this join the one before (or after): files measured a few milliseconds apart must not
 * switch the layout for a frame, nor cost the encode a branch for it.
 */
export const MIN_SPAN_MS = 200;

/** Splits the replay where a picture starts or stops, and names what each stretch shows. */
export function layoutSpans(
  durationMs: number,
  screens: PlacedFile[],
  webcams: PlacedFile[],
  board: readonly BoardStretch[] = [],
): LayoutSpan[] {
  const spans = rawSpans(durationMs, screens, webcams, board);
  const merged: LayoutSpan[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && (span.untilMs - span.fromMs < MIN_SPAN_MS || last.layout === span.layout)) {
      last.untilMs = span.untilMs;
    } else if (last && last.untilMs - last.fromMs < MIN_SPAN_MS) {
      // A short first stretch takes the layout of the one after it.
      merged[merged.length - 1] = { ...span, fromMs: last.fromMs };
    } else merged.push({ ...span });
  }
  return merged;
}

function rawSpans(
  durationMs: number,
  screens: PlacedFile[],
  webcams: PlacedFile[],
  board: readonly BoardStretch[],
): LayoutSpan[] {
  const marks = new Set([0, durationMs]);
  for (const p of [...screens, ...webcams]) {
    marks.add(Math.min(p.atMs, durationMs));
    marks.add(Math.min(p.untilMs, durationMs));
  }
  for (const s of board) {
    marks.add(Math.min(s.fromMs, durationMs));
    marks.add(Math.min(s.untilMs, durationMs));
  }
  const sorted = [...marks].sort((a, b) => a - b);
  const spans: LayoutSpan[] = [];
  const on = (files: PlacedFile[], ms: number) => files.some((p) => p.atMs <= ms && ms < p.untilMs);
  for (let i = 0; i + 1 < sorted.length; i += 1) {
    const fromMs = sorted[i] ?? 0;
    const untilMs = sorted[i + 1] ?? 0;
    const staged = board.find((s) => s.fromMs <= fromMs && fromMs < s.untilMs);
    const screen = on(screens, fromMs);
    const webcam = on(webcams, fromMs);
    // Beside a screen share that is not there, the page takes the picture alone.
    const side = staged?.layout === 'side' && screen;
    const main = staged ? (side ? 'side' : 'board') : screen ? 'screen' : null;
    const layout: Layout = main ? (webcam ? `${main}+webcam` : main) : webcam ? 'webcam' : 'black';
    const last = spans.at(-1);
    if (last && last.layout === layout) last.untilMs = untilMs;
    else spans.push({ fromMs, untilMs, layout });
  }
  return spans;
}

/** The stretches (replay ms) where any of these layouts shows. */
export function spansOf(plan: Pick<CompositionPlan, 'layouts'>, ...layouts: Layout[]): LayoutSpan[] {
  return plan.layouts.filter((span) => layouts.includes(span.layout));
}
