import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LectureClock } from './lecture-clock.tsx';

const NOW = new Date('2026-12-02T05:00:00.000Z');
const secondsAgo = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('LectureClock', () => {
  it("counts from the session's start, not from when the page opened, and ticks each second", () => {
    render(<LectureClock startedAt={secondsAgo(12 * 60 + 34)} />);
    expect(screen.getByRole('timer')).toHaveTextContent('강의 시간 12:34');
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('timer')).toHaveTextContent('강의 시간 12:35');
  });

  it('shows hours past an hour', () => {
    render(<LectureClock startedAt={secondsAgo(3600 + 2 * 60 + 3)} />);
    expect(screen.getByRole('timer')).toHaveTextContent('강의 시간 1:02:03');
  });

  it('shows nothing until the start is known, and 0:00 for a start a node clock puts ahead', () => {
    const { rerender } = render(<LectureClock startedAt={null} />);
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    rerender(<LectureClock startedAt="not a date" />);
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    rerender(<LectureClock startedAt={secondsAgo(-5)} />);
    expect(screen.getByRole('timer')).toHaveTextContent('강의 시간 0:00');
  });
});
