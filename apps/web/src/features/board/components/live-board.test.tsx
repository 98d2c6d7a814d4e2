import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  BOARD_PAGE_DESTINATION,
  type BoardLayout,
  boardTopic,
  type BoardSnapshot,
} from '@sea/contract/board';
import type { Material, MaterialDetail } from '@sea/contract/materials';
import { envelope, mockFetch, type MockRoute } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInPerTest } from '../../../testing/signed-in.ts';
import { fakeBoardConnection } from '../test/fake-board-connection.ts';
import { useStudentBoard } from '../use-student-board.ts';
import { useTeacherBoard } from '../use-teacher-board.ts';
import type { BoardConnection } from '../use-board.ts';
import { BoardStage } from './board-stage.tsx';
import { PresenterPanel } from './presenter-panel.tsx';
import { StudentBoardBar } from './student-board-bar.tsx';

const material: Material = {
  id: 5,
  class_id: 7,
  name: '파도의 원리',
  kind: 'pdf',
  state: 'ready',
  progress: 100,
  pages: 3,
  downloadable: false,
  error: null,
  download_url: null,
  created_at: '2026-12-01T00:00:00.000Z',
};
const detail: MaterialDetail = {
  ...material,
  pages: [1, 2, 3].map((number) => ({
    number,
    title: `파도 ${number}`,
    image_url: `/api/materials/5/files/page-${number}.png?sig=x`,
    thumbnail_url: `/api/materials/5/files/thumb-${number}.png?sig=x`,
    width: 800,
    height: 600,
  })),
};
const snapshot = (
  materialId: number | null,
  page: number | null,
  layout: BoardLayout = 'board',
): BoardSnapshot => ({
  session_id: 3,
  live: true,
  stage: { material_id: materialId, page, blank_pages: 0, layout },
  writer: null,
  strokes: [],
});

function serve(board: BoardSnapshot, more: MockRoute[] = []) {
  return mockFetch([
    ...more,
    { url: '/api/classes/7/materials', respond: () => ({ body: envelope([material]) }) },
    { url: '/api/classes/7/materials/5', respond: () => ({ body: envelope(detail) }) },
    { url: '/api/classes/7/board', respond: () => ({ body: envelope(board) }) },
    { url: '/api/users', respond: () => ({ body: envelope({ id: 'student-1', nickname: '물결' }) }) },
  ]);
}

function TeacherHarness({ connection }: { connection: BoardConnection }) {
  const board = useTeacherBoard(7, connection);
  return (
    <>
      <BoardStage {...board.stage} screen={<p>화면 공유</p>} />
      <PresenterPanel {...board.panel} />
    </>
  );
}

function StudentHarness({ connection }: { connection: BoardConnection }) {
  const board = useStudentBoard(7, connection);
  return (
    <>
      <BoardStage {...board.stage} screen={<p>화면 공유</p>} />
      <StudentBoardBar board={board} />
    </>
  );
}

signedInPerTest();

describe('the live board', { timeout: 15_000 }, () => {
  it('lets the teacher put a material on stage and turn pages with the keys and the thumbnails', async () => {
    serve(snapshot(null, null));
    const fake = fakeBoardConnection();
    renderWithProviders(<TeacherHarness connection={fake.connection} />);
    expect(screen.getByText('화면 공유')).toBeInTheDocument();
    await screen.findByRole('option', { name: '파도의 원리' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: '발표할 자료' }), '5');
    expect(fake.sent.at(-1)).toEqual({
      destination: BOARD_PAGE_DESTINATION,
      body: { materialId: 5, page: 1 },
    });
    act(() =>
      fake.deliver(boardTopic(7), {
        type: 'stage',
        roomId: 7,
        stage: { materialId: 5, page: 1, blankPages: 0, layout: 'board' },
      }),
    );
    expect(await screen.findByRole('img', { name: '파도 1' })).toBeInTheDocument();
    expect(screen.getByText('1 / 3 페이지')).toBeInTheDocument();
    // Not while a field has the keys (the select just used): the arrows are its own there.
    await userEvent.keyboard('{ArrowRight}');
    expect(fake.sent).toHaveLength(1);
    (document.activeElement as HTMLElement).blur();
    await userEvent.keyboard('{ArrowRight}');
    expect(fake.sent.at(-1)?.body).toEqual({ materialId: 5, page: 2 });
    await userEvent.click(
      within(screen.getByRole('list', { name: '페이지 목록' })).getByRole('button', { name: '3. 파도 3' }),
    );
    expect(fake.sent.at(-1)?.body).toEqual({ materialId: 5, page: 3 });
    await userEvent.click(screen.getByRole('button', { name: '빈 페이지 추가' }));
    expect(fake.sent.at(-1)?.body).toEqual({ materialId: 0, page: 1 });
    expect(screen.getByRole('toolbar', { name: '판서 도구' })).toBeInTheDocument();
  });

  it("turns the page with → while the material's pages are still loading (the list knows their number)", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    serve(snapshot(null, null), [
      {
        url: '/api/classes/7/materials/5',
        respond: async () => {
          await held;
          return { body: envelope(detail) };
        },
      },
    ]);
    const fake = fakeBoardConnection();
    renderWithProviders(<TeacherHarness connection={fake.connection} />);
    await screen.findByRole('option', { name: '파도의 원리' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: '발표할 자료' }), '5');
    act(() =>
      fake.deliver(boardTopic(7), {
        type: 'stage',
        roomId: 7,
        stage: { materialId: 5, page: 1, blankPages: 0, layout: 'board' },
      }),
    );
    (document.activeElement as HTMLElement).blur();
    await userEvent.keyboard('{ArrowRight}');
    expect(fake.sent.at(-1)?.body).toEqual({ materialId: 5, page: 2 });
    release();
    expect(await screen.findByRole('img', { name: '파도 1' })).toBeInTheDocument();
  });

  it("keeps the teacher's presenting controls waiting until the board is connected", async () => {
    serve(snapshot(null, null));
    const fake = fakeBoardConnection({ watching: false });
    renderWithProviders(<TeacherHarness connection={fake.connection} />);
    await screen.findByRole('option', { name: '파도의 원리' });
    const picker = screen.getByRole('combobox', { name: '발표할 자료' });
    // A choice made now would not reach the students (nothing is published while connecting).
    expect(picker).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('판서 연결을 기다리는 중이에요');
    act(() => fake.startWatching(boardTopic(7)));
    await waitFor(() => expect(picker).toBeEnabled());
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await userEvent.selectOptions(picker, '5');
    expect(fake.sent.at(-1)).toEqual({
      destination: BOARD_PAGE_DESTINATION,
      body: { materialId: 5, page: 1 },
    });
  });

  it('reads the board again when its snapshot failed, and the controls then work', async () => {
    let reads = 0;
    serve(snapshot(null, null), [
      {
        url: '/api/classes/7/board',
        respond: () =>
          ++reads === 1
            ? { status: 503, body: { message: '잠시 후 다시 시도해 주세요.' } }
            : { body: envelope(snapshot(null, null)) },
      },
    ]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fake = fakeBoardConnection();
    renderWithProviders(<TeacherHarness connection={fake.connection} />);
    const picker = await screen.findByRole('combobox', { name: '발표할 자료' });
    expect(picker).toBeDisabled();
    await waitFor(() => expect(picker).toBeEnabled(), { timeout: 5_000 });
    expect(reads).toBe(2);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('has a late student land on the teacher page, leaf alone and follow again', async () => {
    serve(snapshot(5, 2));
    const fake = fakeBoardConnection();
    renderWithProviders(<StudentHarness connection={fake.connection} />);
    expect(await screen.findByRole('img', { name: '파도 2' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '선생님 화면 따라가기' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '이전 페이지' }));
    expect(await screen.findByRole('img', { name: '파도 1' })).toBeInTheDocument();
    act(() =>
      fake.deliver(boardTopic(7), {
        type: 'stage',
        roomId: 7,
        stage: { materialId: 5, page: 3, blankPages: 0, layout: 'board' },
      }),
    );
    expect(screen.getByRole('img', { name: '파도 1' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '선생님 화면 따라가기' }));
    expect(await screen.findByRole('img', { name: '파도 3' })).toBeInTheDocument();
    expect(screen.queryByRole('toolbar')).not.toBeInTheDocument();
    expect(fake.sent).toEqual([]);
  });

  it('gives the student the tools once the teacher lets them write, and takes them back', async () => {
    serve(snapshot(5, 1));
    const fake = fakeBoardConnection();
    renderWithProviders(<StudentHarness connection={fake.connection} />);
    await screen.findByRole('img', { name: '파도 1' });
    act(() =>
      fake.deliver(boardTopic(7), {
        type: 'writer',
        roomId: 7,
        writer: { userId: 'student-1', nickname: '물결' },
      }),
    );
    expect(await screen.findByRole('toolbar', { name: '판서 도구' })).toBeInTheDocument();
    expect(screen.getByText('선생님이 판서를 허락했어요. 펜으로 쓸 수 있어요.')).toBeInTheDocument();
    act(() => fake.deliver(boardTopic(7), { type: 'writer', roomId: 7, writer: null }));
    expect(screen.queryByRole('toolbar')).not.toBeInTheDocument();
  });

  it('puts the page beside the screen share when the teacher chooses it, for students too', async () => {
    serve(snapshot(5, 1));
    const teacher = fakeBoardConnection();
    const view = renderWithProviders(<TeacherHarness connection={teacher.connection} />);
    await screen.findByRole('img', { name: '파도 1' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: '화면 배치' }), 'side');
    expect(teacher.sent.at(-1)).toEqual({
      destination: BOARD_PAGE_DESTINATION,
      body: { materialId: 5, page: 1, layout: 'side' },
    });
    view.unmount();
    // A student joining late gets the layout with the page, and its changes as they come.
    serve(snapshot(5, 1, 'side'));
    const student = fakeBoardConnection();
    renderWithProviders(<StudentHarness connection={student.connection} />);
    await screen.findByRole('img', { name: '파도 1' });
    // The stage is the outer region of that name (the page inside it is one too).
    const stage = () => screen.getAllByRole('region', { name: '판서' })[0] as HTMLElement;
    expect(stage()).toHaveAttribute('data-layout', 'side');
    expect(within(stage()).getByText('화면 공유')).toBeInTheDocument();
    act(() =>
      student.deliver(boardTopic(7), {
        type: 'stage',
        roomId: 7,
        stage: { materialId: 5, page: 2, blankPages: 0, layout: 'board' },
      }),
    );
    expect(await screen.findByRole('img', { name: '파도 2' })).toBeInTheDocument();
    expect(stage()).toHaveAttribute('data-layout', 'board');
    expect(within(stage()).queryByText('화면 공유')).not.toBeInTheDocument();
  });

  it('finds words in the material on stage and highlights the pages found', async () => {
    const asked: string[] = [];
    serve(snapshot(5, 1), [
      {
        url: /^\/api\/classes\/7\/materials\/5\/search\?q=/,
        respond: (request) => {
          asked.push(new URL(request.url).searchParams.get('q') ?? '');
          return { body: envelope({ pages: [2, 3] }) };
        },
      },
    ]);
    const fake = fakeBoardConnection();
    renderWithProviders(<TeacherHarness connection={fake.connection} />);
    await screen.findByRole('img', { name: '파도 1' });
    await userEvent.type(screen.getByRole('searchbox', { name: '자료에서 찾기' }), '파도 원리');
    await userEvent.click(screen.getByRole('button', { name: '찾기' }));
    expect(await screen.findByText('2쪽에서 찾았어요.')).toBeInTheDocument();
    expect(asked).toEqual(['파도 원리']);
    const list = screen.getByRole('list', { name: '페이지 목록' });
    expect(within(list).getByRole('button', { name: '2. 파도 2 (찾은 쪽)' })).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: '3. 파도 3 (찾은 쪽)' })).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: '1. 파도 1' })).toBeInTheDocument();
    // A blank search clears the marks.
    await userEvent.clear(screen.getByRole('searchbox', { name: '자료에서 찾기' }));
    await userEvent.click(screen.getByRole('button', { name: '찾기' }));
    expect(await within(list).findByRole('button', { name: '2. 파도 2' })).toBeInTheDocument();
  });
});
