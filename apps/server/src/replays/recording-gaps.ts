import type { MediaProbe } from './composition-plan.ts';
import type { RecordedPause, Recording } from './recording-manifest.ts';

/** A stretch of session time (ms) that was not recorded although the lecture went on. */
export type RecordingGap = { fromMs: number; untilMs: number };

/**
 * Shorter stretches are not gaps: a file's last packet ends a little before its `trackEnd`, and a new file of a
 * stream starts a little after the last one ended.
 */
export const MIN_GAP_MS = 2_000;

type Span = [number, number];

/**
 * The stretches of a recording where a stream was on (between its `track` event and its `trackEnd`, or the
 * next file of it, or the end) but no file holds any media, outside the teacher's pauses: the recordings disk
 * was full, and the media service went on with a new file once it had room; and the stretches it said it
 * could not write (`gap` to `gapEnd`). The picture and the sound of such a stretch are lost; the replay cuts
 * it out like a pause and says so.
 */
export function findGaps(
  recording: Recording,
  probes: ReadonlyMap<string, MediaProbe | null>,
): RecordingGap[] {
  const measured = recording.tracks.map((track) => {
    const probe = probes.get(track.file);
    const mediaEnd = probe ? track.startMs + Math.max(0, probe.endMs) : track.startMs;
    return { track, mediaEnd };
  });
  const sessionEnd = recording.endMs ?? Math.max(0, ...measured.map((m) => m.mediaEnd));
  const on: Span[] = measured.map(({ track }) => [
    track.startMs,
    Math.min(track.endMs ?? sessionEnd, sessionEnd),
  ]);
  const covered: Span[] = [
    ...measured.map(({ track, mediaEnd }): Span => [
      track.startMs,
      Math.min(mediaEnd, track.endMs ?? mediaEnd),
    ]),
    ...recording.pauses.map((pause): Span => [pause.startMs, pause.endMs ?? sessionEnd]),
  ];
  // The stretches the media service said it could not write (a full disk): it ended every file there, so
  // no stream is "on" in them by the tracks alone.
  const stalls: Span[] = recording.stalls.map((stall) => [
    stall.startMs,
    Math.min(stall.endMs ?? sessionEnd, sessionEnd),
  ]);
  const lost = [...subtract(union(on), union(covered)), ...subtract(union(stalls), union(covered))];
  return union(lost)
    .filter(([from, until]) => until - from >= MIN_GAP_MS)
    .map(([fromMs, untilMs]) => ({ fromMs, untilMs }));
}

/** The gaps as pauses: the replay cuts them out the same way. */
export function gapsAsPauses(gaps: readonly RecordingGap[]): RecordedPause[] {
  return gaps.map((gap) => ({ startMs: gap.fromMs, endMs: gap.untilMs }));
}

/** Sorted, overlapping spans merged. */
function union(spans: Span[]): Span[] {
  const merged: Span[] = [];
  for (const [from, until] of spans.filter(([a, b]) => b > a).sort((a, b) => a[0] - b[0])) {
    const last = merged.at(-1);
    if (last && from <= last[1]) last[1] = Math.max(last[1], until);
    else merged.push([from, until]);
  }
  return merged;
}

/** What of `spans` (merged) lies outside `minus` (merged). */
function subtract(spans: Span[], minus: Span[]): Span[] {
  const left: Span[] = [];
  for (const [from, until] of spans) {
    let at = from;
    for (const [cutFrom, cutUntil] of minus) {
      if (cutUntil <= at || cutFrom >= until) continue;
      if (cutFrom > at) left.push([at, cutFrom]);
      at = Math.max(at, cutUntil);
    }
    if (at < until) left.push([at, until]);
  }
  return left;
}
