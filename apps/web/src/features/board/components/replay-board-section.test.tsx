import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Chapter, SessionBoard } from '@sea/contract/board';
import type { MaterialDetail } from '@sea/contract/materials';
import { envelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInPerTest } from '../../../testing/signed-in.ts';
import { ReplayBoardSection } from './replay-board-section.tsx';

const board: SessionBoard = {
  session_id: 4,
  stages: [
    { offset_ms: 0, material_id: 5, page: 1 },
    { offset_ms: 30_000, material_id: 5, page: 2 },
  ],
  strokes: [],
};
const detail: MaterialDetail = {
  id: 5,
  class_id: 7,
  name: '파도의 원리',
  kind: 'pdf',
  state: 'ready',
  progress: 100,
  downloadable: false,
  error: null,
  download_url: null,
  created_at: '2026-12-01T00:00:00.000Z',
  pages: [1, 2].map((number) => ({
    number,
    title: `파도 ${number}`,
    image_url: `/api/materials/5/files/page-${number}.png?sig=x`,
    thumbnail_url: `/api/materials/5/files/thumb-${number}.png?sig=x`,
    width: 800,
    height: 600,
  })),
};
const chapter = (id: number, offset: number, title: string): Chapter => ({
  id,
  offset_ms: offset,
  duration_ms: 30_000,
  material_id: 5,
  page: id,
  title,
  renamed: false,
});

function serve(stages = board.stages) {
  let chapters = [chapter(1, 0, '파도 1'), chapter(2, 30_000, '파도 2')];
  return mockFetch([
    { url: '/api/classes/7/sessions/4/board', respond: () => ({ body: envelope({ ...board, stages }) }) },
    { url: '/api/classes/7/materials/5', respond: () => ({ body: envelope(detail) }) },
    { url: '/api/classes/7/sessions/4/chapters', respond: () => ({ body: envelope(chapters) }) },
    {
      method: 'PATCH',
      url: '/api/classes/7/sessions/4/chapters',
      respond: async (request) => {
        const body = (await request.json()) as { chapters: { id: number; title: string }[] };
        chapters = chapters.map((item) =>
          item.id === body.chapters[0]?.id ? { ...item, title: body.chapters[0].title, renamed: true } : item,
        );
        return { body: envelope(chapters) };
      },
    },
  ]);
}

/** The player's clock, moved by a button as a seek would. */
function Player({ onSeek }: { onSeek: (seconds: number) => void }) {
  const [timeMs, setTimeMs] = useState(45_000);
  return (
    <>
      <button type="button" onClick={() => setTimeMs(5_000)}>
        5초로
      </button>
      <ReplayBoardSection classId={7} sessionId={4} timeMs={timeMs} onSeek={onSeek} editable={false} />
    </>
  );
}

signedInPerTest();

describe('the replay board', { timeout: 15_000 }, () => {
  it('shows the page on stage at the player time, and seeks from a chapter', async () => {
    serve();
    const onSeek = vi.fn();
    renderWithProviders(<Player onSeek={onSeek} />);
    expect(await screen.findByRole('img', { name: '파도 2' })).toBeInTheDocument();
    const chapters = screen.getByRole('region', { name: '챕터' });
    expect(await within(chapters).findByRole('button', { name: /0:30\s*파도 2/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await userEvent.click(within(chapters).getByRole('button', { name: /0:00\s*파도 1/ }));
    expect(onSeek).toHaveBeenCalledWith(0);
    await userEvent.click(screen.getByRole('button', { name: '5초로' }));
    expect(await screen.findByRole('img', { name: '파도 1' })).toBeInTheDocument();
    expect(within(chapters).queryByRole('button', { name: /챕터 이름 바꾸기/ })).not.toBeInTheDocument();
  });

  it('lets the teacher rename a chapter', async () => {
    const { calls } = serve();
    renderWithProviders(
      <ReplayBoardSection classId={7} sessionId={4} timeMs={0} onSeek={() => undefined} editable />,
    );
    await userEvent.click(await screen.findByRole('button', { name: '챕터 이름 바꾸기: 파도 2' }));
    const field = screen.getByRole('textbox', { name: '챕터 이름' });
    await userEvent.clear(field);
    await userEvent.type(field, '물결의 간섭');
    await userEvent.click(screen.getByRole('button', { name: '저장' }));
    expect(await screen.findByRole('button', { name: /0:30\s*물결의 간섭/ })).toBeInTheDocument();
    const patch = calls.find((call) => call.method === 'PATCH');
    expect(await patch?.json()).toEqual({ chapters: [{ id: 2, title: '물결의 간섭' }] });
  });

  it('shows nothing for a session that never had a material on stage', async () => {
    const { calls } = serve([]);
    renderWithProviders(
      <ReplayBoardSection classId={7} sessionId={4} timeMs={0} onSeek={() => undefined} editable />,
    );
    await vi.waitFor(() => expect(calls.length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('region', { name: '강의 자료와 판서' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: '챕터' })).not.toBeInTheDocument();
  });
});
