import { useState } from 'react';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SessionBoard } from '@sea/contract/board';
import type { MaterialDetail } from '@sea/contract/materials';
import { envelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInPerTest } from '../../../testing/signed-in.ts';
import { ReplayBoardSection } from './replay-board-section.tsx';

const board: SessionBoard = {
  session_id: 4,
  stages: [
    { offset_ms: 0, material_id: 5, page: 1, layout: 'board' },
    { offset_ms: 30_000, material_id: 5, page: 2, layout: 'board' },
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
function serve(stages = board.stages) {
  return mockFetch([
    { url: '/api/classes/7/sessions/4/board', respond: () => ({ body: envelope({ ...board, stages }) }) },
    { url: '/api/classes/7/materials/5', respond: () => ({ body: envelope(detail) }) },
  ]);
}

/** The player's clock, moved by a button as a seek would. */
function Player() {
  const [timeMs, setTimeMs] = useState(45_000);
  return (
    <>
      <button type="button" onClick={() => setTimeMs(5_000)}>
        5초로
      </button>
      <ReplayBoardSection classId={7} sessionId={4} timeMs={timeMs} />
    </>
  );
}

signedInPerTest();

describe('the replay board', { timeout: 15_000 }, () => {
  it('shows the page on stage at the player time', async () => {
    serve();
    renderWithProviders(<Player />);
    expect(await screen.findByRole('img', { name: '파도 2' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '5초로' }));
    expect(await screen.findByRole('img', { name: '파도 1' })).toBeInTheDocument();
  });

  it('shows nothing for a session that never had a material on stage', async () => {
    const { calls } = serve([]);
    renderWithProviders(<ReplayBoardSection classId={7} sessionId={4} timeMs={0} />);
    await vi.waitFor(() => expect(calls.length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('region', { name: '강의 자료와 판서' })).not.toBeInTheDocument();
  });
});
