/// <reference lib="dom" />
// Runs inside Chromium (bundled by run-board-render-bench.ts): the live board's own renderer on a phone-sized
// page holding 5 000 points, while a stroke comes in point by point as a student receives it.
import { drawStroke } from '../../apps/web/src/features/board/ink/draw-stroke.ts';
import { InkRenderer, type InkSurface } from '../../apps/web/src/features/board/ink/ink-renderer.ts';
import type { InkPoint, Stroke } from '../../apps/web/src/features/board/ink/ink-types.ts';
import { PageInk } from '../../apps/web/src/features/board/ink/page-ink.ts';

type Result = { frames: number; seconds: number; fps: number; points: number };

/** 50 strokes of 100 points: waves across the page, a fifth of them highlighter. */
function pageWith5000Points(): PageInk {
  const ink = new PageInk();
  for (let index = 0; index < 50; index += 1) {
    const points: InkPoint[] = Array.from({ length: 100 }, (_, step) => [
      0.05 + (0.9 * step) / 99,
      0.05 + 0.9 * ((index + 0.5) / 50) + 0.01 * Math.sin(step / 5),
      0.3 + 0.4 * Math.abs(Math.sin(step / 9)),
    ]);
    ink.load([
      {
        id: `s${index}`,
        tool: index % 5 === 0 ? 'highlighter' : 'pen',
        color: '#10243e',
        width: index % 5 === 0 ? 0.02 : 0.004,
        points,
        done: true,
      },
    ]);
  }
  return ink;
}

/** Draws every frame for `seconds` while a received stroke grows by two points a frame; counts the frames. */
function run(seconds: number, cached: boolean): Promise<Result> {
  const canvas = document.createElement('canvas');
  canvas.style.width = '368px';
  canvas.style.height = '276px';
  document.body.append(canvas);
  const size = { width: 368, height: 276 };
  const renderer = new InkRenderer(
    canvas as unknown as InkSurface,
    () => document.createElement('canvas') as unknown as InkSurface,
  );
  renderer.resize(size, window.devicePixelRatio || 1);
  const ink = pageWith5000Points();
  let live = 0;
  const start = (): Stroke => ({
    id: `live${(live += 1)}`,
    tool: 'pen',
    color: '#e5343d',
    width: 0.004,
    points: [],
    done: false,
  });
  let stroke = start();
  ink.apply(stroke);
  return new Promise((resolve) => {
    let frames = 0;
    const began = performance.now();
    const frame = (now: number): void => {
      const t = frames % 120;
      ink.apply({
        ...stroke,
        points: [
          [0.1 + t / 160, 0.5 + 0.1 * Math.sin(t / 6), 0.5],
          [0.1 + (t + 0.5) / 160, 0.5, 0.5],
        ],
        done: t === 119,
      });
      if (t === 119) {
        // The stroke ends (the cache is drawn again) and the next one starts; the page stays at about 5 000.
        ink.erase([stroke.id]);
        stroke = start();
        ink.apply(stroke);
      }
      if (cached) renderer.draw(ink);
      else {
        const context = canvas.getContext('2d');
        if (context) {
          const ratio = window.devicePixelRatio || 1;
          context.setTransform(1, 0, 0, 1, 0, 0);
          context.clearRect(0, 0, canvas.width, canvas.height);
          context.setTransform(ratio, 0, 0, ratio, 0, 0);
          for (const each of ink.strokes) drawStroke(context, each, size);
        }
      }
      frames += 1;
      if (now - began < seconds * 1000) requestAnimationFrame(frame);
      else {
        canvas.remove();
        const elapsed = (performance.now() - began) / 1000;
        resolve({ frames, seconds: elapsed, fps: frames / elapsed, points: ink.pointCount });
      }
    };
    requestAnimationFrame(frame);
  });
}

(window as unknown as { boardBench: typeof run }).boardBench = run;
