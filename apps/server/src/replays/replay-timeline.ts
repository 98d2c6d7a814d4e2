import type { RecordingGap } from './recording-gaps.ts';
import type { RecordedPause } from './recording-manifest.ts';

/**
 * How session time maps onto a replay: the replay is the recorded time, so the teacher's pauses are cut out.
 * `cuts` are in session time (ms from the session's start), in order, without overlap. The replay's chat sync
 * maps each message's `offset_ms` with `toReplayMs`. Stored beside the replay as `timeline.json`.
 */
export type ReplayTimeline = {
  /** Session time where the replay ends. */
  sessionEndMs: number;
  /** The replay's length: `sessionEndMs` less the cuts. */
  durationMs: number;
  cuts: { atMs: number; lengthMs: number }[];
  /**
   * The cuts (or parts of them) that were not recorded although the lecture went on, rather than paused by the
   * teacher (recording-gaps.ts), in session time; absent in a replay made before gaps were told.
   */
  gaps?: RecordingGap[];
};

/** The timeline of a session that ends at `sessionEndMs` with these pauses (one still open runs to the end). */
export function buildTimeline(pauses: readonly RecordedPause[], sessionEndMs: number): ReplayTimeline {
  const cuts: ReplayTimeline['cuts'] = [];
  let reached = 0;
  for (const pause of [...pauses].sort((a, b) => a.startMs - b.startMs)) {
    const start = Math.max(pause.startMs, reached);
    const end = Math.min(pause.endMs ?? sessionEndMs, sessionEndMs);
    if (end <= start) continue;
    cuts.push({ atMs: start, lengthMs: end - start });
    reached = end;
  }
  const cut = cuts.reduce((sum, c) => sum + c.lengthMs, 0);
  return { sessionEndMs, durationMs: sessionEndMs - cut, cuts };
}

/**
 * The replay time (ms) of a moment of the session: a moment inside a cut maps to where the cut is in the
 * replay; before the start to 0, after the end to the replay's end.
 */
export function toReplayMs(timeline: ReplayTimeline, sessionMs: number): number {
  let replayMs = Math.min(Math.max(sessionMs, 0), timeline.sessionEndMs);
  for (const cut of timeline.cuts) {
    if (sessionMs <= cut.atMs) break;
    replayMs -= Math.min(cut.lengthMs, sessionMs - cut.atMs);
  }
  return Math.max(0, Math.min(replayMs, timeline.durationMs));
}

/** The session time a replay time shows (the inverse of `toReplayMs` outside the cuts). */
export function toSessionMs(timeline: ReplayTimeline, replayMs: number): number {
  let sessionMs = Math.min(Math.max(replayMs, 0), timeline.durationMs);
  for (const cut of timeline.cuts) {
    if (sessionMs < cut.atMs) break;
    sessionMs += cut.lengthMs;
  }
  return sessionMs;
}

/** The session time where the first cut after `sessionMs` starts, or the end. */
export function nextCutMs(timeline: ReplayTimeline, sessionMs: number): number {
  return timeline.cuts.find((cut) => cut.atMs + cut.lengthMs > sessionMs)?.atMs ?? timeline.sessionEndMs;
}
