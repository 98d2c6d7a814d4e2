import { describe, expect, it } from 'vitest';
import { InkHistory } from './ink-history.ts';
import type { Stroke } from './ink-types.ts';
import { PageInk } from './page-ink.ts';

const stroke = (id: string, done = true, points: Stroke['points'] = [[0.1, 0.1, 0.5]]): Stroke => ({
  id,
  tool: 'pen',
  color: '#000000',
  width: 0.003,
  points,
  done,
});

describe('PageInk', () => {
  it('builds a stroke from its pieces and counts a change of the finished ink only when it ends', () => {
    const ink = new PageInk();
    ink.apply(stroke('a', false, [[0, 0, 0.5]]));
    ink.apply(stroke('a', false, [[0.1, 0.1, 0.6]]));
    expect(ink.version).toBe(0);
    expect(ink.inProgress()).toHaveLength(1);
    ink.apply(stroke('a', true, [[0.2, 0.2, 0.7]]));
    expect(ink.version).toBe(1);
    expect(ink.get('a')?.points).toEqual([
      [0, 0, 0.5],
      [0.1, 0.1, 0.6],
      [0.2, 0.2, 0.7],
    ]);
    expect(ink.finished().map((held) => held.id)).toEqual(['a']);
  });

  it('ignores a piece of a finished stroke (a repeat after a reconnect)', () => {
    const ink = new PageInk();
    ink.apply(stroke('a'));
    ink.apply(stroke('a'));
    expect(ink.pointCount).toBe(1);
  });

  it('skips the points of a piece the stroke already holds (the snapshot had them)', () => {
    const ink = new PageInk();
    ink.load([
      stroke('a', false, [
        [0, 0, 0.5],
        [0.1, 0.1, 0.5],
      ]),
    ]);
    ink.apply({
      ...stroke('a', false, [
        [0.1, 0.1, 0.5],
        [0.2, 0.2, 0.5],
      ]),
      from: 1,
    });
    ink.apply({ ...stroke('a', true, [[0.3, 0.3, 0.5]]), from: 3 });
    expect(ink.get('a')?.points.map((point) => point[0])).toEqual([0, 0.1, 0.2, 0.3]);
  });

  it('erases and clears, answering what was removed', () => {
    const ink = new PageInk();
    ink.load([stroke('a'), stroke('b'), stroke('c')]);
    expect(ink.erase(['b', 'missing']).map((gone) => gone.id)).toEqual(['b']);
    expect(ink.strokes.map((held) => held.id)).toEqual(['a', 'c']);
    expect(ink.clear()).toHaveLength(2);
    expect(ink.strokes).toEqual([]);
  });
});

describe('InkHistory', () => {
  let next = 0;
  const history = () => new InkHistory(() => `new-${++next}`);

  it('undoes a stroke by erasing it and redoes it under a new id', () => {
    const steps = history();
    steps.drew(stroke('a'));
    expect(steps.undo()).toEqual({ kind: 'remove', ids: ['a'] });
    const redo = steps.redo();
    expect(redo?.kind).toBe('add');
    const id = redo?.kind === 'add' ? redo.strokes[0]?.id : undefined;
    expect(id).toMatch(/^new-/);
    expect(steps.undo()).toEqual({ kind: 'remove', ids: [id] });
  });

  it('undoes a clear by putting every stroke back, and a new stroke drops the redo', () => {
    const steps = history();
    steps.removed([stroke('a'), stroke('b')]);
    const undone = steps.undo();
    expect(undone?.kind === 'add' && undone.strokes.length).toBe(2);
    expect(steps.canRedo).toBe(true);
    steps.drew(stroke('c'));
    expect(steps.canRedo).toBe(false);
    expect(steps.redo()).toBeNull();
  });

  it('forgets strokes someone else erased', () => {
    const steps = history();
    steps.drew(stroke('a'));
    steps.forget(new Set(['a']));
    expect(steps.undo()).toEqual({ kind: 'remove', ids: [] });
  });
});
