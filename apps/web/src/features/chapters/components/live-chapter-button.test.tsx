import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Chapter } from '@sea/contract/chapters';
import { envelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInPerTest } from '../../../testing/signed-in.ts';
import { LiveChapterButton } from './live-chapter-button.tsx';

const mark = (id: string, offset: number, title: string): Chapter => ({
  id,
  kind: 'mark',
  offset_ms: offset,
  duration_ms: 0,
  material_id: null,
  page: null,
  title,
  renamed: title !== '새 챕터',
});

signedInPerTest();

describe("the live room's chapters (teacher)", { timeout: 15_000 }, () => {
  it('marks the lecture now, then renames and removes the mark during the lecture', async () => {
    let chapters: Chapter[] = [];
    const url = '/api/classes/7/sessions/4/chapters';
    const { calls } = mockFetch([
      { url, respond: () => ({ body: envelope(chapters) }) },
      {
        method: 'POST',
        url,
        respond: () => {
          chapters = [mark('mark-1', 754_000, '새 챕터')];
          return { body: envelope(chapters) };
        },
      },
      {
        method: 'PATCH',
        url: `${url}/mark-1`,
        respond: async (request) => {
          const { title } = (await request.json()) as { title: string };
          chapters = [mark('mark-1', 754_000, title)];
          return { body: envelope(chapters) };
        },
      },
      {
        method: 'DELETE',
        url: `${url}/mark-1`,
        respond: () => {
          chapters = [];
          return { body: envelope(chapters) };
        },
      },
    ]);
    renderWithProviders(<LiveChapterButton classId={7} sessionId={4} />);
    // No chapters yet: only the button.
    await vi.waitFor(() => expect(calls.some((call) => call.method === 'GET')).toBe(true));
    expect(screen.queryByText(/이번 강의의 챕터/)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: '여기서 새 챕터' }));
    await userEvent.click(await screen.findByText('이번 강의의 챕터 1개'));
    // In the room the time is shown, not a seek button (there is no player to seek).
    expect(screen.getByText('12:34')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /12:34/ })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: '챕터 이름 바꾸기: 새 챕터' }));
    const field = screen.getByRole('textbox', { name: '챕터 이름' });
    await userEvent.clear(field);
    await userEvent.type(field, '파동의 간섭');
    await userEvent.click(screen.getByRole('button', { name: '저장' }));
    const list = screen.getByRole('list');
    expect(await within(list).findByText('파동의 간섭')).toBeInTheDocument();
    expect(await calls.find((call) => call.method === 'PATCH')?.json()).toEqual({ title: '파동의 간섭' });

    await userEvent.click(screen.getByRole('button', { name: '챕터 지우기: 파동의 간섭' }));
    await vi.waitFor(() => expect(screen.queryByText(/이번 강의의 챕터/)).not.toBeInTheDocument());
  });
});
