import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@sea/contract/chat';
import { ChatMessageItem, LONG_PRESS_MS } from './chat-message-item.tsx';

const message = {
  id: 1,
  writer: '해달',
  writer_id: 'u1',
  role: 'student',
  content: '안녕하세요',
  createdDate: '2026-12-02T01:00:00.000Z',
  profile_image_path: null,
} as unknown as ChatMessage;

describe('a message’s actions on a touch screen', () => {
  it('open after a long press, and not after a tap', () => {
    vi.useFakeTimers();
    try {
      render(
        <ul>
          <ChatMessageItem message={message} mine={false} actions={{ onDelete: () => undefined }} />
        </ul>,
      );
      const item = screen.getByRole('listitem');
      fireEvent.pointerDown(item, { pointerType: 'touch' });
      fireEvent.pointerUp(item, { pointerType: 'touch' });
      act(() => vi.advanceTimersByTime(LONG_PRESS_MS * 2));
      expect(item).not.toHaveAttribute('data-actions-open');
      fireEvent.pointerDown(item, { pointerType: 'touch' });
      act(() => vi.advanceTimersByTime(LONG_PRESS_MS));
      expect(item).toHaveAttribute('data-actions-open', 'true');
      expect(screen.getByRole('button', { name: '메시지 삭제' })).toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});
