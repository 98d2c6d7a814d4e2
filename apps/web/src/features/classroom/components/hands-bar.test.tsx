import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { HandsControls } from '../use-hands.ts';
import { HandsBar } from './hands-bar.tsx';

const controls = (): HandsControls => ({
  hands: {
    roomId: 7,
    count: 2,
    raised: false,
    queue: [
      { userId: 'u1', nickname: '해마', raisedDate: '2026-01-01T00:00:00Z' },
      { userId: 'u2', nickname: '고래', raisedDate: '2026-01-01T00:00:01Z' },
    ],
  },
  setRaised: vi.fn(),
  lower: vi.fn(),
});

describe('HandsBar', () => {
  it("puts the route's control beside each raised hand in the teacher's queue, in order", () => {
    render(
      <HandsBar
        controls={controls()}
        role="teacher"
        disabled={false}
        handAction={(hand) => <button type="button">{`발언 요청 ${hand.userId}`}</button>}
      />,
    );
    const items = within(screen.getByRole('list', { name: '손든 순서' })).getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('button', { name: /발언 요청/ }).textContent)).toEqual([
      '발언 요청 u1',
      '발언 요청 u2',
    ]);
  });

  it('a student sees no queue and no such control', () => {
    render(
      <HandsBar
        controls={controls()}
        role="student"
        disabled={false}
        handAction={() => <button>x</button>}
      />,
    );
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.queryByRole('button', { name: 'x' })).toBeNull();
  });
});
