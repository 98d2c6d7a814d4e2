import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WHITEBOARD_ID, type BoardLayout } from '@sea/contract/board';
import { BoardState } from '../../features/board/board-state.ts';
import type { StudentBoard } from '../../features/board/use-student-board.ts';
import { classItem } from '../../features/classes/test/class-fixtures.ts';
import { LiveServicesContext, type LiveServices } from '../../features/live/live-services.ts';
import {
  asTrack,
  FakeMediaStream,
  FakeTrack,
  fakeLiveServices,
} from '../../features/live/test/fake-live-services.ts';
import { envelope, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { Component as StudentRoom } from './live-student.tsx';

// The student's stage with the teacher's material on it: the teacher's audio, and '데이터 절약 모드'.

vi.mock('../live-room-panel.tsx', () => ({
  LiveRoomPanel: () => <p>채팅 패널</p>,
  LiveRoomPanelView: () => <p>채팅 패널</p>,
}));
vi.mock('../../lib/realtime/use-room-connection.ts', () => ({
  useRoomConnection: () => ({
    state: 'connecting',
    messages: [],
    refusal: null,
    send: () => false,
    connection: null,
  }),
}));
/** The board as the teacher set it: a whiteboard page on stage, in this layout (null: nothing on stage). */
const stage: { layout: BoardLayout | null } = { layout: null };
vi.mock('../../features/board/use-student-board.ts', () => ({
  useStudentBoard: (): StudentBoard => {
    const page = stage.layout === null ? null : { materialId: WHITEBOARD_ID, page: 1 };
    return {
      stage: { board: new BoardState(null), page, pages: undefined, layout: stage.layout ?? 'board' },
      following: true,
      page,
      pageCount: page ? 1 : 0,
      go: () => {},
      follow: () => {},
      toolbar: null,
    };
  },
}));

const classDetail = classItem({
  object: '목표',
  description: '설명',
  instructor_info: '소개',
  prerequisite: null,
  announcement: null,
  is_active: true,
});

beforeEach(() => {
  localStorage.clear();
  stage.layout = null;
  vi.stubGlobal('MediaStream', FakeMediaStream);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  mockFetch([{ url: '/api/classes/7', respond: () => ({ body: envelope(classDetail) }) }]);
});
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderRoom(services: LiveServices) {
  return renderWithProviders(
    <LiveServicesContext.Provider value={services}>
      <StudentRoom />
    </LiveServicesContext.Provider>,
    { route: '/live/student/7', path: '/live/student/:classId' },
  );
}

/** The teacher's microphone, webcam and screen share arrive. */
function receive(fakes: ReturnType<typeof fakeLiveServices>) {
  const mic = new FakeTrack('audio');
  act(() => {
    fakes.signalling.setState('connected');
    fakes.viewer.emit('trackAdded', { kind: 'webcamAudio', track: asTrack(mic) });
    fakes.viewer.emit('trackAdded', { kind: 'webcamVideo', track: asTrack(new FakeTrack('video')) });
    fakes.viewer.emit('trackAdded', { kind: 'screenShareVideo', track: asTrack(new FakeTrack('video')) });
  });
  return mic;
}

const playing = () =>
  [...document.querySelectorAll('audio')].flatMap(
    (element) =>
      (element as HTMLMediaElement & { srcObject: FakeMediaStream | null }).srcObject?.tracks ?? [],
  );

describe('student room with a material on stage', { timeout: 15_000 }, () => {
  it("the teacher's voice goes on when the page takes the whole stage", async () => {
    stage.layout = 'board';
    const fakes = fakeLiveServices();
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    const mic = receive(fakes);
    expect(screen.queryByLabelText('강사 화면 공유')).not.toBeInTheDocument();
    expect(playing()).toEqual([mic]);
    expect(fakes.viewer.materialOnStage).toEqual([true]);
  });

  it("'데이터 절약 모드' shows the page alone even beside the screen share, and the screen again when off", async () => {
    stage.layout = 'side';
    const fakes = fakeLiveServices();
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    const mic = receive(fakes);
    expect(screen.getByLabelText('강사 화면 공유')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: '데이터 절약 모드' }));
    expect(fakes.viewer.dataSaving).toEqual([false, true]);
    expect(screen.queryByLabelText('강사 화면 공유')).not.toBeInTheDocument();
    expect(document.querySelector('[data-board-page="0:1"]')).toBeInTheDocument();
    expect(playing()).toEqual([mic]);
    await userEvent.click(screen.getByRole('switch', { name: '데이터 절약 모드' }));
    expect(screen.getByLabelText('강사 화면 공유')).toBeInTheDocument();
  });
});
