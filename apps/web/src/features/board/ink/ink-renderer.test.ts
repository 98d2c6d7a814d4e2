import { describe, expect, it } from 'vitest';
import { InkRenderer, type InkSurface } from './ink-renderer.ts';
import type { Stroke } from './ink-types.ts';
import { LaserTrail } from './laser-trail.ts';
import { PageInk } from './page-ink.ts';

/** A canvas whose context records the calls the renderer makes. */
function surface(width = 300, height = 150) {
  const calls: string[] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push(
        `${name}(${args.map((arg) => (typeof arg === 'number' ? Math.round(arg) : '·')).join(',')})`,
      );
    };
  const context = new Proxy(
    {},
    {
      get: (_, name: string) => record(name),
      set: () => true,
    },
  );
  const canvas = { width, height, getContext: () => context } as unknown as InkSurface;
  return { canvas, calls };
}

const stroke = (id: string, done: boolean): Stroke => ({
  id,
  tool: 'line',
  color: '#000000',
  width: 0.01,
  points: [
    [0.1, 0.1, 0.5],
    [0.5, 0.5, 0.5],
  ],
  done,
});

describe('InkRenderer', () => {
  it('draws finished strokes once on its layer and only the stroke in progress on every frame', () => {
    const visible = surface();
    const layer = surface();
    const renderer = new InkRenderer(visible.canvas, () => layer.canvas);
    renderer.resize({ width: 400, height: 300 }, 2);
    expect([visible.canvas.width, visible.canvas.height, layer.canvas.width]).toEqual([800, 600, 800]);
    const ink = new PageInk();
    ink.load([stroke('a', true)]);
    ink.apply(stroke('b', false));
    renderer.draw(ink);
    renderer.draw(ink);
    // The layer drew 'a' once; the visible canvas drew 'b' on both frames, in page pixels (400 wide).
    expect(layer.calls.filter((call) => call.startsWith('lineTo'))).toEqual(['lineTo(200,150)']);
    expect(visible.calls.filter((call) => call.startsWith('lineTo'))).toEqual([
      'lineTo(200,150)',
      'lineTo(200,150)',
    ]);
    ink.apply({ ...stroke('b', true), points: [] });
    renderer.draw(ink);
    expect(layer.calls.filter((call) => call.startsWith('lineTo'))).toHaveLength(3);
  });

  it('learns the page size on a canvas already sized by an earlier renderer (a page turned)', () => {
    const visible = surface(800, 600);
    const layer = surface();
    const renderer = new InkRenderer(visible.canvas, () => layer.canvas);
    renderer.resize({ width: 800, height: 600 }, 1);
    expect(renderer.size).toEqual({ width: 800, height: 600 });
    expect(layer.canvas.width).toBe(800);
  });

  it('draws the laser while its dots last, and nothing after', () => {
    const visible = surface();
    const renderer = new InkRenderer(visible.canvas, () => surface().canvas);
    renderer.resize({ width: 100, height: 100 }, 1);
    const laser = new LaserTrail();
    laser.add(0.5, 0.5, 0);
    renderer.draw(new PageInk(), laser, 100);
    expect(visible.calls.filter((call) => call.startsWith('arc'))).toHaveLength(1);
    renderer.draw(new PageInk(), laser, 5_000);
    expect(visible.calls.filter((call) => call.startsWith('arc'))).toHaveLength(1);
    expect(laser.empty).toBe(true);
  });
});
