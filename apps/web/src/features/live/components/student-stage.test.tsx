import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../../lib/http-error.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { ENDED_NOTICE_DELAY_MS, useStudentRoom } from '../hooks/use-student-room.ts';
import { LiveServicesContext, type LiveServices } from '../live-services.ts';
import { LiveRequestError } from '../signalling-client.ts';
import { asTrack, FakeMediaStream, FakeTrack, fakeLiveServices } from '../test/fake-live-services.ts';
import { StudentAudio, StudentStage, StudentStatus, StudentWebcam } from './student-stage.tsx';
import { PLAY_PENDING_MS } from './teacher-audio.tsx';

let play: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.stubGlobal('MediaStream', FakeMediaStream);
  play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function Room() {
  const room = useStudentRoom(7);
  return (
    <>
      <StudentStage room={room} classId={7} />
      <StudentAudio room={room} />
      <StudentWebcam room={room} />
      <StudentStatus room={room} />
    </>
  );
}

function renderRoom(services: LiveServices) {
  return renderWithProviders(
    <LiveServicesContext.Provider value={services}>
      <Room />
    </LiveServicesContext.Provider>,
    {
      route: '/live/student/7',
      path: '/live/student/:classId',
      routes: [{ path: '/dashboard/student/:classId', element: <p>학생 대시보드</p> }],
    },
  );
}

const srcTracks = (element: Element) =>
  ((element as HTMLMediaElement & { srcObject: FakeMediaStream | null }).srcObject?.tracks ?? []).map(
    (track) => track.id,
  );

describe('student room stage', () => {
  it('joins and shows the streams as they come and go, without a reload', async () => {
    const fakes = fakeLiveServices();
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalledWith(fakes.signalling));
    expect(screen.getByText('강사가 화면을 공유하면 여기에 나타나요')).toBeInTheDocument();
    expect(screen.getByText('카메라 꺼짐')).toBeInTheDocument();
    act(() => fakes.signalling.setState('connected'));
    expect(screen.getByRole('status', { name: '연결 상태' })).toHaveTextContent('연결됨');

    const screenTrack = new FakeTrack('video');
    const webcamTrack = new FakeTrack('video');
    const mic = new FakeTrack('audio');
    const system = new FakeTrack('audio');
    act(() => {
      fakes.viewer.emit('trackAdded', { kind: 'screenShareVideo', track: asTrack(screenTrack) });
      fakes.viewer.emit('trackAdded', { kind: 'webcamVideo', track: asTrack(webcamTrack) });
      fakes.viewer.emit('trackAdded', { kind: 'webcamAudio', track: asTrack(mic) });
      fakes.viewer.emit('trackAdded', { kind: 'screenShareAudio', track: asTrack(system) });
      fakes.viewer.emit('viewerCount', 4);
    });
    expect(srcTracks(screen.getByLabelText('강사 화면 공유'))).toEqual([screenTrack.id]);
    expect(srcTracks(screen.getByLabelText('강사 카메라 영상'))).toEqual([webcamTrack.id]);
    const audio = document.querySelectorAll('audio');
    expect([...audio].flatMap(srcTracks)).toEqual([mic.id, system.id]);
    expect(screen.getByText('시청자 4명')).toBeInTheDocument();

    act(() => fakes.viewer.emit('trackRemoved', { kind: 'webcamVideo' }));
    expect(screen.queryByLabelText('강사 카메라 영상')).not.toBeInTheDocument();
    expect(screen.getByText('카메라 꺼짐')).toBeInTheDocument();
    act(() => fakes.viewer.emit('trackRemoved', { kind: 'webcamAudio' }));
    expect([...document.querySelectorAll('audio')].flatMap(srcTracks)).toEqual([system.id]);
  });

  it("offers 'tap to hear' when the browser blocks autoplay, and plays on the tap", async () => {
    const fakes = fakeLiveServices();
    play.mockRejectedValueOnce(new DOMException('autoplay blocked', 'NotAllowedError'));
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    act(() =>
      fakes.viewer.emit('trackAdded', { kind: 'webcamAudio', track: asTrack(new FakeTrack('audio')) }),
    );
    const button = await screen.findByRole('button', { name: '소리 켜기' });
    const calls = play.mock.calls.length;
    await userEvent.click(button);
    expect(play.mock.calls.length).toBe(calls + 1);
    await waitFor(() => expect(screen.queryByRole('button', { name: '소리 켜기' })).not.toBeInTheDocument());
  });

  it("also offers 'tap to hear' when play() stays pending, and hides it once playing", async () => {
    const fakes = fakeLiveServices();
    let start: () => void = () => {};
    play.mockImplementationOnce(() => new Promise<void>((resolve) => (start = resolve)));
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    vi.useFakeTimers();
    act(() =>
      fakes.viewer.emit('trackAdded', { kind: 'webcamAudio', track: asTrack(new FakeTrack('audio')) }),
    );
    act(() => vi.advanceTimersByTime(PLAY_PENDING_MS - 1));
    expect(screen.queryByRole('button', { name: '소리 켜기' })).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('button', { name: '소리 켜기' })).toBeInTheDocument();
    vi.useRealTimers();
    await act(async () => start());
    expect(screen.queryByRole('button', { name: '소리 켜기' })).not.toBeInTheDocument();
  });

  it('sends the chosen quality: auto, high, medium, low', async () => {
    const fakes = fakeLiveServices();
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    const menu = screen.getByRole('combobox', { name: '화질' });
    expect(menu).toHaveValue('auto');
    expect([...menu.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      '자동',
      '고화질',
      '중화질',
      '저화질',
    ]);
    await userEvent.selectOptions(menu, '저화질');
    await userEvent.selectOptions(menu, '고화질');
    await userEvent.selectOptions(menu, '중화질');
    await userEvent.selectOptions(menu, '자동');
    expect(fakes.viewer.layers).toEqual(['q', 'f', 'h', 'auto']);
  });

  it('on teacherLeft disconnects, tells after 1 s that the lecture has ended, then goes to the dashboard', async () => {
    const fakes = fakeLiveServices();
    const { router } = renderRoom(fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    vi.useFakeTimers();
    act(() => fakes.viewer.emit('ended', undefined));
    expect(fakes.viewer.closeCount).toBe(1);
    expect(fakes.signalling.closeCount).toBe(1);
    expect(screen.getByRole('status', { name: '연결 상태' })).toHaveTextContent('연결 끊김');
    act(() => vi.advanceTimersByTime(ENDED_NOTICE_DELAY_MS - 10));
    expect(screen.queryByText('강의가 종료되었어요')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/live/student/7');
    act(() => vi.advanceTimersByTime(10));
    vi.useRealTimers();
    expect(await screen.findByText('강의가 종료되었어요')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/student/7'));
    expect(fakes.viewer.closeCount).toBe(1);
    expect(fakes.signalling.closeCount).toBe(1);
  });

  it('explains a refused entry when the class is not live, with a link back to the dashboard', async () => {
    const fakes = fakeLiveServices();
    fakes.viewer.joinResult = Promise.reject(new LiveRequestError('notLive', 'not live'));
    const { router } = renderRoom(fakes.services);
    expect(await screen.findByRole('alert')).toHaveTextContent('지금은 라이브 강의 중이 아니에요.');
    expect(fakes.viewer.closeCount).toBe(1);
    expect(fakes.signalling.closeCount).toBe(1);
    await userEvent.click(screen.getByRole('link', { name: '대시보드로 돌아가기' }));
    expect(router.state.location.pathname).toBe('/dashboard/student/7');
  });

  it('says so in the room when the media node is full, without leaving it', async () => {
    const fakes = fakeLiveServices();
    fakes.viewer.joinResult = Promise.reject(new LiveRequestError('full', '가득 찼어요'));
    const { router } = renderRoom(fakes.services);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '강의실이 가득 차서 입장하지 못했어요. 잠시 후 다시 시도해 주세요.',
    );
    expect(fakes.viewer.closeCount).toBe(1);
    expect(fakes.signalling.closeCount).toBe(1);
    expect(router.state.location.pathname).toBe('/live/student/7');
  });

  it.each([
    [
      'a stranger (the ticket answers 418)',
      new HttpError({ status: 418 }),
      '/lecture/info/7',
      '강의에 접근할 권한이 없어요.',
    ],
    [
      "the media service's forbidden",
      new LiveRequestError('forbidden', '수강생만 할 수 있어요.'),
      '/lecture/info/7',
      '강의에 접근할 권한이 없어요.',
    ],
    [
      'a class that does not exist (404)',
      new HttpError({ status: 404 }),
      '/classroom',
      '강의를 찾을 수 없어요.',
    ],
    [
      'a session that is over (401 after the refresh)',
      new HttpError({ status: 401 }),
      '/login',
      '권한이 없어요. 다시 로그인해 주세요.',
    ],
  ])('for %s: tells it and leaves the room', async (_, cause, path, notice) => {
    const fakes = fakeLiveServices();
    if (cause instanceof HttpError) fakes.failConnect(cause);
    else fakes.viewer.joinResult = Promise.reject(cause);
    const { router } = renderRoom(fakes.services);
    await waitFor(() => expect(router.state.location.pathname).toBe(path));
    expect(await screen.findByText(notice)).toBeInTheDocument();
    expect(router.state.historyAction).toBe('REPLACE');
    expect(fakes.signalling.closeCount).toBe(cause instanceof HttpError ? 0 : 1);
    expect(fakes.viewer.closeCount).toBe(cause instanceof HttpError ? 0 : 1);
  });

  it.each([
    [
      'any other failure',
      new HttpError({ status: 500 }),
      '알 수 없는 오류가 발생했어요. 잠시 후 다시 시도해 주세요.',
    ],
    [
      'no server reachable',
      new LiveRequestError('offline', '미디어 서버와 연결이 끊겼어요.'),
      '서버에 연결하지 못했어요. 잠시 후 다시 시도해 주세요.',
    ],
  ])('on %s: stays and says so, with the way back to the dashboard', async (_, cause, message) => {
    const fakes = fakeLiveServices();
    fakes.viewer.joinResult = Promise.reject(cause);
    const { router } = renderRoom(fakes.services);
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(router.state.location.pathname).toBe('/live/student/7');
    expect(screen.getByRole('link', { name: '대시보드로 돌아가기' })).toBeInTheDocument();
  });

  it('the status follows the media connection too: connecting while recovering, failed when it gave up', async () => {
    const fakes = fakeLiveServices();
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    act(() => fakes.signalling.setState('connected'));
    await waitFor(() =>
      expect(screen.getByRole('status', { name: '연결 상태' })).toHaveTextContent('연결됨'),
    );
    act(() => fakes.viewer.setMediaState('connecting'));
    expect(screen.getByRole('status', { name: '연결 상태' })).toHaveTextContent('연결 중');
    act(() => fakes.viewer.setMediaState('failed'));
  });

  it('closes the viewer and the connection once on unmount', async () => {
    const fakes = fakeLiveServices();
    const { unmount } = renderRoom(fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    unmount();
    expect(fakes.viewer.closeCount).toBe(1);
    expect(fakes.signalling.closeCount).toBe(1);
    expect(fakes.viewer.count()).toBe(0);
    expect(fakes.signalling.count()).toBe(0);
  });

  it('tells the student the lecture is recorded, the same moment the teacher sees it', async () => {
    const fakes = fakeLiveServices();
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    // Not recorded: nothing is said.
    act(() => fakes.viewer.emit('recordingState', { recording: false, paused: false }));
    expect(screen.queryByRole('status', { name: '녹화 상태' })).not.toBeInTheDocument();
    act(() => fakes.viewer.emit('recordingState', { recording: true, paused: false }));
    expect(screen.getByRole('status', { name: '녹화 상태' })).toHaveTextContent('이 강의는 녹화되고 있어요');
    act(() => fakes.viewer.emit('recordingState', { recording: true, paused: true }));
    expect(screen.getByRole('status', { name: '녹화 상태' })).toHaveTextContent('녹화가 잠시 멈췄어요');
    // The media service cannot write the recording: the notice says so, and comes back with it.
    act(() => fakes.viewer.emit('recordingState', { recording: true, paused: false, stalled: true }));
    expect(screen.getByRole('status', { name: '녹화 상태' })).toHaveTextContent(
      '지금은 녹화되지 않고 있어요',
    );
    act(() => fakes.viewer.emit('recordingState', { recording: true, paused: false, stalled: false }));
    expect(screen.getByRole('status', { name: '녹화 상태' })).toHaveTextContent('이 강의는 녹화되고 있어요');
  });
});
