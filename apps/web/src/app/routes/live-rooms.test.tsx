import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveServicesContext, type LiveServices } from '../../features/live/live-services.ts';
import { LiveRequestError } from '../../features/live/signalling-client.ts';
import {
  asTrack,
  FakeMediaStream,
  FakeTrack,
  fakeLiveServices,
} from '../../features/live/test/fake-live-services.ts';
import { classItem } from '../../features/classes/test/class-fixtures.ts';
import { envelope, mockFetch } from '../../testing/fetch-mock.ts';
import { sessionItem } from '../../testing/session-fixtures.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { Component as StudentRoom } from './live-student.tsx';
import { Component as TeacherRoom } from './live-teacher.tsx';

// The side panel has its own tests; here it would open a real STOMP connection.
vi.mock('../live-room-panel.tsx', () => ({
  LiveRoomPanel: () => <p>채팅 패널</p>,
  LiveRoomPanelView: () => <p>채팅 패널</p>,
}));
// The room's connection (shared by the panel and the board) stays closed: these tests are about the media.
vi.mock('../../lib/realtime/use-room-connection.ts', () => ({
  useRoomConnection: () => ({
    state: 'connecting',
    messages: [],
    refusal: null,
    send: () => false,
    connection: null,
  }),
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
  vi.stubGlobal('MediaStream', FakeMediaStream);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  mockFetch([{ url: '/api/classes/7', respond: () => ({ body: envelope(classDetail) }) }]);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderAt(role: 'teacher' | 'student', services: LiveServices) {
  const Room = role === 'teacher' ? TeacherRoom : StudentRoom;
  return renderWithProviders(
    <LiveServicesContext.Provider value={services}>
      <Room />
    </LiveServicesContext.Provider>,
    {
      route: `/live/${role}/7`,
      path: `/live/${role}/:classId`,
      routes: [{ path: `/dashboard/${role}/:classId`, element: <p>대시보드</p> }],
    },
  );
}

describe('live room pages', { timeout: 15_000 }, () => {
  it('teacher: toggles in the frame, previews in its slots, leaving ends the broadcast and goes to the dashboard', async () => {
    const fakes = fakeLiveServices();
    const { router } = renderAt('teacher', fakes.services);
    expect(await screen.findByRole('heading', { name: '바다에서 배우는 타입스크립트' })).toBeInTheDocument();
    const controls = screen.getByRole('group', { name: '방송 설정' });
    await waitFor(() => expect(within(controls).getByRole('button', { name: '웹캠 켜기' })).toBeEnabled());
    await userEvent.click(within(controls).getByRole('button', { name: '웹캠 켜기' }));
    await userEvent.click(within(controls).getByRole('button', { name: '화면 공유 켜기' }));
    await waitFor(() => expect(fakes.publisher.published.size).toBe(2));
    expect(
      within(screen.getByRole('region', { name: '강사 카메라' })).getByLabelText('내 웹캠 미리보기'),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: '화면 공유' })).getByLabelText('내 화면 공유 미리보기'),
    ).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: '강의실 나가기' }));
    const dialog = screen.getByRole('alertdialog', { name: '강의를 종료할까요?' });
    await userEvent.click(within(dialog).getByRole('button', { name: '강의 종료' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/teacher/7'));
    expect(fakes.signalling.closeCount).toBe(1);
    expect(fakes.publisher.closeCount).toBe(1);
    expect(fakes.captures.flatMap((capture) => capture.tracks).every((track) => track.stopped)).toBe(true);
  });

  it("teacher: the lecture's time counts from the open session's start, as after a reload", async () => {
    const startedAt = new Date(Date.now() - (3600 + 2 * 60 + 3) * 1000).toISOString();
    const open = sessionItem(9, { state: 'recording' }, { started_at: startedAt, ended_at: null });
    mockFetch([
      { url: '/api/classes/7', respond: () => ({ body: envelope(classDetail) }) },
      { url: '/api/classes/7/sessions', respond: () => ({ body: envelope([open, sessionItem(8)]) }) },
    ]);
    renderAt('teacher', fakeLiveServices().services);
    const controls = await screen.findByRole('group', { name: '방송 설정' });
    expect(await within(controls).findByRole('timer')).toHaveTextContent(/^강의 시간 1:02:0[3-5]$/);
  });

  it('student: the screen share in the main area, the webcam in the small one', async () => {
    const fakes = fakeLiveServices();
    renderAt('student', fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    act(() => {
      fakes.viewer.emit('trackAdded', { kind: 'screenShareVideo', track: asTrack(new FakeTrack('video')) });
      fakes.viewer.emit('trackAdded', { kind: 'webcamVideo', track: asTrack(new FakeTrack('video')) });
    });
    const main = screen.getByRole('region', { name: '화면 공유' });
    expect(within(main).getByLabelText('강사 화면 공유').tagName).toBe('VIDEO');
    const small = screen.getByRole('region', { name: '강사 카메라' });
    expect(within(small).getByLabelText('강사 카메라 영상').tagName).toBe('VIDEO');
    expect(screen.queryByRole('group', { name: '방송 설정' })).not.toBeInTheDocument();
    expect(screen.getByText('채팅 패널')).toBeInTheDocument();
    // The status, viewers and quality sit under the screen, not over the shared picture.
    const status = screen.getByRole('status', { name: '연결 상태' });
    expect(main).not.toContainElement(status);
    expect(main).not.toContainElement(screen.getByRole('combobox', { name: /화질/ }));
  });

  it('student, class not live: the refusal once (no toast), the chat off without a connection or input', async () => {
    const fakes = fakeLiveServices();
    fakes.viewer.joinResult = Promise.reject(new LiveRequestError('notLive', 'not live'));
    renderAt('student', fakes.services);
    const refusal = await screen.findByRole('alert');
    expect(refusal).toHaveTextContent('지금은 라이브 강의 중이 아니에요.');
    expect(screen.getAllByText(/라이브 강의 중이 아니에요/)).toHaveLength(1);
    const chat = screen.getByRole('region', { name: '채팅' });
    expect(chat).toHaveTextContent('강의가 시작되면 채팅이 열려요.');
    expect(within(chat).getByText('꺼짐')).toBeInTheDocument();
    expect(within(chat).queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByText('채팅 패널')).not.toBeInTheDocument();
    expect(screen.queryByText('연결됨')).not.toBeInTheDocument();
  });
});
