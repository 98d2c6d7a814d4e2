import { screen, within } from '@testing-library/react';
import { formatDateTime } from '../../../lib/format-date-time.ts';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Poll, Question } from '@sea/contract/classroom';
import type { SessionItem } from '@sea/contract/sessions';
import { envelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { poll, question } from '../../../testing/classroom-fixtures.ts';
import { sessionItem } from '../../../testing/session-fixtures.ts';
import { PastQuestionsCard } from './past-questions-card.tsx';

const session = (id: number, title: string | null): SessionItem =>
  sessionItem(id, { state: 'none', progress: 0, title, hls_url: null, mp4_url: null });

/** A student's question in a session of class 7, asked by '해마'. */
const asked = (id: number, sessionId: number, content: string, fields: Partial<Question> = {}): Question =>
  question({ id, sessionId, content, author: '해마', authorId: 'u1', ...fields });

const POLL: Poll = poll({
  id: 3,
  sessionId: 2,
  question: '2 + 2는?',
  options: ['3', '4'],
  quiz: true,
  correct: [1],
  counts: [1, 6],
  voters: 7,
  closed: true,
  revealed: true,
});

const QUESTIONS: Record<number, Question[]> = {
  2: [asked(5, 2, '가장 추천받은 질문', { votes: 4, anonymous: true, author: '문어', answered: true })],
  1: [],
};

beforeEach(() => {
  localStorage.setItem('accessToken', 'token');
  mockFetch([
    {
      url: '/api/classes/7/sessions',
      respond: () => ({ body: envelope([session(2, '파도 2강'), session(1, null)]) }),
    },
    {
      url: /^\/api\/classes\/7\/polls\?session=\d+$/,
      respond: (request) => {
        const id = Number(new URL(request.url).searchParams.get('session'));
        return { body: envelope({ sessionId: id, polls: id === 2 ? [POLL] : [] }) };
      },
    },
    {
      url: /^\/api\/classes\/7\/questions\?session=\d+$/,
      respond: (request) => {
        const id = Number(new URL(request.url).searchParams.get('session'));
        return { body: envelope({ sessionId: id, questions: QUESTIONS[id] ?? [] }) };
      },
    },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

describe('PastQuestionsCard', () => {
  it("shows the newest session's questions with their askers, and another session's when chosen", async () => {
    renderWithProviders(<PastQuestionsCard classId={7} />);
    const list = await screen.findByRole('list', { name: '수업의 질문' });
    const item = await within(list).findByRole('listitem');
    expect(item).toHaveTextContent('가장 추천받은 질문');
    expect(item).toHaveTextContent('문어');
    expect(item).toHaveTextContent('(다른 수강생에게는 익명)');
    expect(item).toHaveTextContent('추천 4');
    expect(item).toHaveTextContent('답변 완료');
    const polls = await screen.findByRole('list', { name: '수업의 투표' });
    expect(polls).toHaveTextContent('7명 참여');
    expect(
      within(polls)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toContain('4정답6표');
    // The replay's title where the teacher gave one, else the start in the app's one date style.
    const started = formatDateTime('2026-11-11T10:00:00.000Z');
    expect(
      within(screen.getByRole('combobox', { name: '수업' }))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['파도 2강', started]);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: '수업' }), '1');
    expect(await screen.findByText('이 수업에는 질문이 없었어요.')).toBeInTheDocument();
  });
});
