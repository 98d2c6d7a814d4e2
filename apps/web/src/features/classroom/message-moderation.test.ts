import { afterEach, describe, expect, it, vi } from 'vitest';
import { deleteLater, UNDO_DELETE_MS } from './message-moderation.ts';

afterEach(() => vi.useRealTimers());

describe("a deleted message's 되돌리기", () => {
  it('sends the delete after 5 s, offering the undo for that long', () => {
    vi.useFakeTimers();
    const send = vi.fn();
    const offered: number[] = [];
    deleteLater(send, (_undo, forMs) => offered.push(forMs));
    expect(offered).toEqual([UNDO_DELETE_MS]);
    vi.advanceTimersByTime(UNDO_DELETE_MS - 1);
    expect(send).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(send).toHaveBeenCalledOnce();
  });

  it('sends nothing once undone within the 5 s', () => {
    vi.useFakeTimers();
    const send = vi.fn();
    let undo: () => void = () => undefined;
    deleteLater(send, (given) => (undo = given));
    vi.advanceTimersByTime(4_000);
    undo();
    vi.advanceTimersByTime(UNDO_DELETE_MS * 2);
    expect(send).not.toHaveBeenCalled();
  });
});
