import { describe, expect, it } from 'vitest';
import type { Stroke } from './ink-types.ts';
import type { StrokePiece } from './page-ink.ts';
import {
  MAX_PIECE_POINTS,
  PIECE_INTERVAL_MS,
  StrokeStreamer,
  type StreamerTimers,
} from './stroke-streamer.ts';

/** Timers run by hand: `tick()` fires what is due. */
function manualTimers(): StreamerTimers & { tick: () => void; delays: number[] } {
  let due: (() => void) | null = null;
  const delays: number[] = [];
  return {
    delays,
    setTimeout: (run, ms) => {
      due = run;
      delays.push(ms);
      return 1;
    },
    clearTimeout: () => {
      due = null;
    },
    tick: () => {
      const run = due;
      due = null;
      run?.();
    },
  };
}

const start: Stroke = {
  id: 's',
  tool: 'pen',
  color: '#112233',
  width: 0.003,
  points: [[0, 0, 0.5]],
  done: false,
};

describe('StrokeStreamer', () => {
  it('sends the start at once, then the points of each interval, then the rest with done', () => {
    const sent: StrokePiece[] = [];
    const timers = manualTimers();
    const streamer = new StrokeStreamer((piece) => sent.push(piece), timers);
    streamer.start(start);
    streamer.add([[0.1, 0.1, 0.5]]);
    streamer.add([[0.2, 0.2, 0.5]]);
    expect(sent).toHaveLength(1);
    expect(timers.delays).toEqual([PIECE_INTERVAL_MS]);
    timers.tick();
    streamer.add([[0.3, 0.3, 0.5]]);
    streamer.end();
    expect(sent.map((piece) => [piece.points.length, piece.done])).toEqual([
      [1, false],
      [2, false],
      [1, true],
    ]);
    expect(sent[2]).toMatchObject({ id: 's', tool: 'pen', color: '#112233', width: 0.003 });
  });

  it('ends with an empty done piece when nothing is left', () => {
    const sent: StrokePiece[] = [];
    const streamer = new StrokeStreamer((piece) => sent.push(piece), manualTimers());
    streamer.start(start);
    streamer.end();
    expect(sent.at(-1)).toMatchObject({ points: [], done: true });
  });

  it('splits a long wait into pieces the server accepts', () => {
    const sent: StrokePiece[] = [];
    const streamer = new StrokeStreamer((piece) => sent.push(piece), manualTimers());
    streamer.start(start);
    streamer.add(Array.from({ length: MAX_PIECE_POINTS * 2 + 5 }, () => [0.5, 0.5, 0.5] as const));
    streamer.end();
    expect(sent.slice(1).map((piece) => [piece.points.length, piece.done])).toEqual([
      [MAX_PIECE_POINTS, false],
      [MAX_PIECE_POINTS, false],
      [5, true],
    ]);
  });

  it('sends only the latest end of a shape', () => {
    const sent: StrokePiece[] = [];
    const timers = manualTimers();
    const streamer = new StrokeStreamer((piece) => sent.push(piece), timers);
    streamer.start({ ...start, tool: 'line' }, true);
    streamer.add([[0.1, 0.1, 0.5]]);
    streamer.add([[0.4, 0.4, 0.5]]);
    timers.tick();
    streamer.end();
    expect(sent.map((piece) => piece.points)).toEqual([[[0, 0, 0.5]], [[0.4, 0.4, 0.5]], []]);
  });
});
