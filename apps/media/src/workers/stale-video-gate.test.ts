import { describe, expect, it } from 'vitest';
import type { Layer } from '@sea/contract/live';
import { KEYFRAME_AFTER_DROP_INTERVAL_MS, STALE_VIDEO_MS, StaleVideoGate } from './stale-video-gate.ts';

/** A gate and the keyframe requests it made. */
function gate() {
  const asked: string[] = [];
  const g = new StaleVideoGate((id, layer) => asked.push(`${id}:${layer}`));
  return { g, asked };
}

describe('StaleVideoGate', () => {
  it('forwards packets that waited up to the limit', () => {
    const { g, asked } = gate();
    expect(g.pass('cam', 'f', false, 1_000, 1_000)).toBe(true);
    expect(g.pass('cam', 'f', false, 1_000, 1_000 + STALE_VIDEO_MS)).toBe(true);
    expect(g.dropped).toBe(0);
    expect(asked).toEqual([]);
  });

  it('drops a stale packet, then its layer until a keyframe starts, asking for one once a second', () => {
    const { g, asked } = gate();
    const t = 10_000;
    // A backlog: stale packets are dropped without asking (the keyframe would only queue behind them).
    expect(g.pass('cam', 'f', false, t, t + STALE_VIDEO_MS + 1)).toBe(false);
    expect(g.pass('cam', 'f', true, t, t + STALE_VIDEO_MS + 1)).toBe(false);
    expect(asked).toEqual([]);
    // Caught up: fresh packets of the broken picture are still dropped, and one keyframe is asked for.
    expect(g.pass('cam', 'f', false, t + 500, t + 500)).toBe(false);
    expect(g.pass('cam', 'f', false, t + 600, t + 600)).toBe(false);
    expect(asked).toEqual(['cam:f']);
    expect(
      g.pass(
        'cam',
        'f',
        false,
        t + 500 + KEYFRAME_AFTER_DROP_INTERVAL_MS,
        t + 500 + KEYFRAME_AFTER_DROP_INTERVAL_MS,
      ),
    ).toBe(false);
    expect(asked).toEqual(['cam:f', 'cam:f']);
    // The keyframe's first packet and everything after it go through again.
    expect(g.pass('cam', 'f', true, t + 2_000, t + 2_000)).toBe(true);
    expect(g.pass('cam', 'f', false, t + 2_010, t + 2_010)).toBe(true);
    expect(g.dropped).toBe(5);
  });

  it('keeps each layer and stream apart', () => {
    const { g } = gate();
    const layers: Layer[] = ['q', 'h'];
    expect(g.pass('cam', 'f', false, 0, STALE_VIDEO_MS + 1)).toBe(false);
    for (const layer of layers) expect(g.pass('cam', layer, false, 500, 500)).toBe(true);
    expect(g.pass('screen', 'f', false, 500, 500)).toBe(true);
    expect(g.pass('cam', 'f', false, 500, 500)).toBe(false);
  });

  it('forgets a stream that left the worker', () => {
    const { g } = gate();
    expect(g.pass('cam', 'f', false, 0, STALE_VIDEO_MS + 1)).toBe(false);
    g.forget('cam');
    expect(g.pass('cam', 'f', false, 500, 500)).toBe(true);
  });
});
