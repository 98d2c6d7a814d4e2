/** Seconds of a replay as sorted, disjoint, non-touching `[start, end)` pairs of whole seconds. */
export type WatchedSpans = [number, number][];

/** `spans` with the seconds `[start, end)` added: overlapping and touching pairs merge, so each second counts once. */
export function addSpan(
  spans: readonly (readonly [number, number])[],
  start: number,
  end: number,
): WatchedSpans {
  if (end <= start) return spans.map(([a, b]) => [a, b]);
  const result: WatchedSpans = [];
  let merged: [number, number] = [start, end];
  for (const [a, b] of spans) {
    if (b < merged[0]) result.push([a, b]);
    else if (a > merged[1]) {
      result.push(merged);
      merged = [a, b];
    } else merged = [Math.min(a, merged[0]), Math.max(b, merged[1])];
  }
  result.push(merged);
  return result;
}

/** How many seconds the spans hold. */
export function countSeconds(spans: readonly (readonly [number, number])[]): number {
  return spans.reduce((sum, [a, b]) => sum + (b - a), 0);
}

/** A replay's length in whole seconds, the last part-second included: the seconds progress counts against. */
export function lengthSeconds(lengthMs: number): number {
  return Math.ceil(lengthMs / 1000);
}

/** The whole percent (0-100) of a replay `lengthMs` long that `seconds` played seconds make; null without a length. */
export function percentWatched(seconds: number, lengthMs: number | null): number | null {
  if (lengthMs === null || lengthMs <= 0) return null;
  return Math.min(100, Math.floor((seconds * 100) / lengthSeconds(lengthMs)));
}
