import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Chapter } from '@sea/contract/chapters';
import { envelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInPerTest } from '../../../testing/signed-in.ts';
import { ChapterList } from './chapter-list.tsx';
import { ChapterMarks } from './chapter-marks.tsx';

const chapter = (id: string, offset: number, title: string): Chapter => ({
  id,
  kind: id.startsWith('page') ? 'page' : 'mark',
  offset_ms: offset,
  duration_ms: 30_000,
  material_id: id.startsWith('page') ? 5 : null,
  page: id.startsWith('page') ? 1 : null,
  title,
  renamed: !id.startsWith('page'),
});

function serve() {
  let chapters = [chapter('page-1', 0, '파도 1'), chapter('mark-2', 30_000, '간섭 <b>정리</b>')];
  const url = '/api/classes/7/sessions/4/chapters';
  return mockFetch([
    { url, respond: () => ({ body: envelope(chapters) }) },
    {
      method: 'POST',
      url,
      respond: async (request) => {
        const body = (await request.json()) as { offset_ms: number; title: string };
        chapters = [...chapters, chapter('mark-3', body.offset_ms, body.title)];
        return { body: envelope(chapters) };
      },
    },
    {
      method: 'PATCH',
      url: `${url}/mark-2`,
      respond: async (request) => {
        const body = (await request.json()) as { title: string };
        chapters = chapters.map((item) => (item.id === 'mark-2' ? { ...item, title: body.title } : item));
        return { body: envelope(chapters) };
      },
    },
    {
      method: 'DELETE',
      url: `${url}/page-1`,
      respond: () => {
        chapters = chapters.filter((item) => item.id !== 'page-1');
        return { body: envelope(chapters) };
      },
    },
  ]);
}

/** The player's clock, moved by a button as playing would. */
function Player({ onSeek, editable = false }: { onSeek: (seconds: number) => void; editable?: boolean }) {
  const [timeMs, setTimeMs] = useState(45_000);
  return (
    <>
      <button type="button" onClick={() => setTimeMs(5_000)}>
        5초로
      </button>
      <ChapterMarks classId={7} sessionId={4} timeMs={timeMs} durationMs={60_000} onSeek={onSeek} />
      <ChapterList classId={7} sessionId={4} timeMs={timeMs} onSeek={onSeek} editable={editable} />
    </>
  );
}

signedInPerTest();

describe('the chapter list', { timeout: 15_000 }, () => {
  it('highlights the chapter playing, seeks from the list and from the timeline, and shows titles as text', async () => {
    serve();
    const onSeek = vi.fn();
    renderWithProviders(<Player onSeek={onSeek} />);
    const list = screen.getByRole('region', { name: '챕터' });
    const mark = await within(list).findByRole('button', { name: /0:30\s*간섭 <b>정리<\/b>/ });
    expect(mark).toHaveAttribute('aria-current', 'true');
    expect(list.querySelector('b')).toBeNull();
    await userEvent.click(within(list).getByRole('button', { name: /0:00\s*파도 1/ }));
    expect(onSeek).toHaveBeenLastCalledWith(0);
    const timeline = screen.getByRole('group', { name: '챕터 위치' });
    const marks = within(timeline).getAllByRole('button');
    expect(marks.map((button) => button.style.left)).toEqual(['0%', '50%']);
    await userEvent.click(within(timeline).getByRole('button', { name: '0:30 간섭 <b>정리</b>' }));
    expect(onSeek).toHaveBeenLastCalledWith(30);
    await userEvent.click(screen.getByRole('button', { name: '5초로' }));
    expect(within(list).getByRole('button', { name: /0:00\s*파도 1/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    expect(mark).toHaveAttribute('aria-current', 'false');
    expect(within(list).queryByRole('button', { name: /챕터 이름 바꾸기/ })).not.toBeInTheDocument();
  });

  it('lets the teacher add a chapter at the player time, rename one and remove one', async () => {
    const { calls } = serve();
    renderWithProviders(<Player onSeek={() => undefined} editable />);
    const list = screen.getByRole('region', { name: '챕터' });
    await userEvent.type(await screen.findByRole('textbox', { name: '새 챕터 이름' }), '마무리');
    await userEvent.click(screen.getByRole('button', { name: '0:45 지금 시점에 챕터 추가' }));
    expect(await within(list).findByRole('button', { name: /0:45\s*마무리/ })).toBeInTheDocument();
    expect(await calls.find((call) => call.method === 'POST')?.json()).toEqual({
      offset_ms: 45_000,
      title: '마무리',
    });

    await userEvent.click(screen.getByRole('button', { name: '챕터 이름 바꾸기: 간섭 <b>정리</b>' }));
    const field = screen.getByRole('textbox', { name: '챕터 이름' });
    await userEvent.clear(field);
    await userEvent.type(field, '물결의 간섭');
    await userEvent.click(screen.getByRole('button', { name: '저장' }));
    expect(await within(list).findByRole('button', { name: /0:30\s*물결의 간섭/ })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: '챕터 지우기: 파도 1' }));
    await vi.waitFor(() =>
      expect(within(list).queryByRole('button', { name: /0:00\s*파도 1/ })).not.toBeInTheDocument(),
    );
  });
});
