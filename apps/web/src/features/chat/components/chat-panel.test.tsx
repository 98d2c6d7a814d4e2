import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@sea/contract/chat';
import { renderWithProviders } from '../../../testing/render.tsx';
import { ChatPanel } from './chat-panel.tsx';

function message(id: number, createdDate: string, content: string): ChatMessage {
  return {
    id,
    roomId: 7,
    content,
    writer: '고래',
    writer_id: 'u1',
    profile_image_path: null,
    role: 'student',
    createdDate,
  };
}

describe('ChatPanel', () => {
  it('puts a date line above each day’s messages, so an earlier lecture’s chat stands apart', () => {
    renderWithProviders(
      <ChatPanel
        messages={[
          message(1, '2026-11-25T11:00:00Z', '지난 강의 질문'),
          message(2, '2026-11-25T11:05:00Z', '지난 강의 답'),
          message(3, '2026-12-02T11:00:00Z', '오늘 강의 인사'),
        ]}
        disabled={false}
        send={() => true}
      />,
    );
    const list = screen.getByRole('list');
    const lines = [...list.querySelectorAll('li[data-day]')];
    expect(lines.map((line) => line.textContent)).toEqual(['2026년 11월 25일 (수)', '2026년 12월 2일 (수)']);
    // Each line stands right before the first message of its day.
    expect(lines[1]?.nextElementSibling).toHaveTextContent('오늘 강의 인사');
  });
});
