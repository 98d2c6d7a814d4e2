import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '@sea/contract/auth-keys';
import { HttpError } from '../../../lib/http-error.ts';
import { takeReturnTo } from '../../../lib/return-to.ts';
import { LiveRequestError } from '../signalling-client.ts';
import { mediaPerTest, fakeLiveServices, type FakeTrack } from '../test/fake-live-services.ts';
import { notices, renderRoom, stateOf, status } from '../test/teacher-room.tsx';

mediaPerTest();

describe('teacher room controls', () => {
  it('connects, opens the room, and shows the connection status and the viewer count', async () => {
    const fakes = fakeLiveServices();
    renderRoom(fakes.services);
    expect(screen.getByRole('status', { name: '연결 상태' })).toHaveTextContent('연결 중');
    await waitFor(() => expect(fakes.publisher.started).toBe(1));
    expect(fakes.services.connect).toHaveBeenCalledWith(7);
    act(() => fakes.signalling.setState('connected'));
    expect(screen.getByRole('status', { name: '연결 상태' })).toHaveTextContent('연결됨');
    act(() => fakes.publisher.emit('viewerCount', 3));
    expect(screen.getByText('시청자 3명')).toBeInTheDocument();
    act(() => fakes.signalling.setState('disconnected'));
    expect(screen.getByRole('status', { name: '연결 상태' })).toHaveTextContent('연결 끊김');
    act(() => fakes.signalling.setState('failed'));
    expect(screen.getByRole('status', { name: '연결 상태' })).toHaveTextContent('연결 실패');
  });

  it('switches the webcam on with a 720p capture and off again, with its preview and status', async () => {
    const fakes = fakeLiveServices();
    renderRoom(fakes.services);
    const on = await screen.findByRole('button', { name: '웹캠 켜기' });
    await waitFor(() => expect(on).toBeEnabled());
    expect(stateOf('webcam')).toBe('꺼짐');
    await userEvent.click(on);
    await waitFor(() => expect(stateOf('webcam')).toBe('송출 중'));
    expect(fakes.services.getUserMedia).toHaveBeenCalledWith({
      video: { width: { ideal: 1280 }, height: { ideal: 720 } },
    });
    const track = fakes.captures[0]?.tracks[0];
    expect(fakes.publisher.published.get('webcamVideo')).toBe(track);
    expect(screen.getByLabelText('웹캠 미리보기').tagName).toBe('VIDEO');
    expect(screen.getByText('화면 꺼짐')).toBeInTheDocument();
    // The other three are untouched.
    expect([stateOf('screen'), stateOf('microphone'), stateOf('systemAudio')]).toEqual([
      '꺼짐',
      '꺼짐',
      '꺼짐',
    ]);

    await userEvent.click(screen.getByRole('button', { name: '웹캠 끄기', pressed: true }));
    await waitFor(() => expect(stateOf('webcam')).toBe('꺼짐'));
    expect(track?.stopped).toBe(true);
    expect(fakes.publisher.published.has('webcamVideo')).toBe(false);
    expect(screen.getByText('웹캠 꺼짐')).toBeInTheDocument();
  });

  it('publishes the microphone, the screen and system audio as their own streams', async () => {
    const fakes = fakeLiveServices();
    renderRoom(fakes.services);
    await waitFor(() => expect(screen.getByRole('button', { name: '마이크 켜기' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: '마이크 켜기' }));
    await userEvent.click(screen.getByRole('button', { name: '화면 공유 켜기' }));
    await userEvent.click(screen.getByRole('button', { name: '시스템 소리 켜기' }));
    await waitFor(() => expect(fakes.publisher.published.size).toBe(3));
    expect(fakes.services.getUserMedia).toHaveBeenCalledWith({ audio: true });
    expect(fakes.services.getDisplayMedia).toHaveBeenCalledWith({ video: true });
    expect(fakes.services.getDisplayMedia).toHaveBeenCalledWith({ video: true, audio: true });
    expect(fakes.publisher.published.get('webcamAudio')?.kind).toBe('audio');
    expect(fakes.publisher.published.get('screenShareVideo')?.kind).toBe('video');
    expect(fakes.publisher.published.get('screenShareAudio')?.kind).toBe('audio');
    expect(screen.getByLabelText('화면 미리보기').tagName).toBe('VIDEO');
    expect(stateOf('systemAudio')).toBe('송출 중');
  });

  it('turns the screen share off when the browser stops sharing', async () => {
    const fakes = fakeLiveServices();
    renderRoom(fakes.services);
    await waitFor(() => expect(screen.getByRole('button', { name: '화면 공유 켜기' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: '화면 공유 켜기' }));
    await waitFor(() => expect(stateOf('screen')).toBe('송출 중'));
    const track = fakes.captures[0]?.tracks[0] as FakeTrack;
    act(() => track.end());
    await waitFor(() => expect(stateOf('screen')).toBe('꺼짐'));
    expect(fakes.publisher.published.has('screenShareVideo')).toBe(false);
    expect(screen.getByRole('button', { name: '화면 공유 켜기' })).toBeInTheDocument();
  });

  it('says so when the browser gives no system audio, and stops what it captured', async () => {
    const fakes = fakeLiveServices();
    fakes.devices.displayAudio = false;
    renderRoom(fakes.services);
    await waitFor(() => expect(screen.getByRole('button', { name: '시스템 소리 켜기' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: '시스템 소리 켜기' }));
    await waitFor(() => expect(stateOf('systemAudio')).toBe('이 브라우저는 시스템 소리를 보낼 수 없어요'));
    expect(fakes.captures[0]?.tracks.every((track) => track.stopped)).toBe(true);
    expect(fakes.publisher.published.size).toBe(0);
    expect(screen.getByRole('button', { name: '시스템 소리 켜기' })).toBeInTheDocument();
  });

  it('shows a device failure and a publishing failure on their toggles', async () => {
    const fakes = fakeLiveServices();
    fakes.devices.userMediaFails = true;
    fakes.publisher.outcome = 'failed';
    renderRoom(fakes.services);
    await waitFor(() => expect(screen.getByRole('button', { name: '마이크 켜기' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: '마이크 켜기' }));
    await waitFor(() => expect(stateOf('microphone')).toBe('카메라·마이크를 사용할 수 없어요'));
    await userEvent.click(screen.getByRole('button', { name: '화면 공유 켜기' }));
    await waitFor(() => expect(stateOf('screen')).toBe('송출 실패'));
  });

  it('a cancelled screen picker just turns the toggle back off, with a short note (not a device failure)', async () => {
    const fakes = fakeLiveServices();
    fakes.devices.displayError = new DOMException('Permission denied', 'NotAllowedError');
    renderRoom(fakes.services);
    await waitFor(() => expect(screen.getByRole('button', { name: '화면 공유 켜기' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: '화면 공유 켜기' }));
    await waitFor(() => expect(stateOf('screen')).toBe('화면 공유를 취소했어요'));
    expect(screen.getByRole('button', { name: '화면 공유 켜기' })).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(screen.getByRole('button', { name: '시스템 소리 켜기' }));
    await waitFor(() => expect(stateOf('systemAudio')).toBe('시스템 소리 공유를 취소했어요'));
    expect(fakes.publisher.published.size).toBe(0);
    expect(screen.queryByText('카메라·마이크를 사용할 수 없어요')).not.toBeInTheDocument();
    // Asking again works once the picker is answered.
    fakes.devices.displayError = null;
    await userEvent.click(screen.getByRole('button', { name: '화면 공유 켜기' }));
    await waitFor(() => expect(stateOf('screen')).toBe('송출 중'));
  });

  it('says that a browser without display capture cannot share the screen or its sound', async () => {
    const fakes = fakeLiveServices();
    fakes.devices.displayError = new DOMException('display capture is not supported', 'NotSupportedError');
    renderRoom(fakes.services);
    await waitFor(() => expect(screen.getByRole('button', { name: '화면 공유 켜기' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: '화면 공유 켜기' }));
    await userEvent.click(screen.getByRole('button', { name: '시스템 소리 켜기' }));
    await waitFor(() => expect(stateOf('screen')).toBe('이 브라우저는 화면을 공유할 수 없어요'));
    await waitFor(() => expect(stateOf('systemAudio')).toBe('이 브라우저는 시스템 소리를 보낼 수 없어요'));
    expect(screen.getByRole('button', { name: '화면 공유 켜기' })).toBeInTheDocument();
  });

  it('any other display-capture failure says the screen could not be shared', async () => {
    const fakes = fakeLiveServices();
    fakes.devices.displayError = new DOMException('Could not start video source', 'NotReadableError');
    renderRoom(fakes.services);
    await waitFor(() => expect(screen.getByRole('button', { name: '화면 공유 켜기' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: '화면 공유 켜기' }));
    await waitFor(() => expect(stateOf('screen')).toBe('화면을 공유할 수 없어요'));
    await userEvent.click(screen.getByRole('button', { name: '시스템 소리 켜기' }));
    await waitFor(() => expect(stateOf('systemAudio')).toBe('시스템 소리를 가져올 수 없어요'));
  });

  it.each([
    [
      'the ticket answers 401 after the refresh',
      new HttpError({ status: 401 }),
      '/login',
      '권한이 없어요. 다시 로그인해 주세요.',
    ],
    ['the class does not exist (404)', new HttpError({ status: 404 }), '/mypage', '강의를 찾을 수 없어요.'],
    [
      'the ticket answers 418 (not this class)',
      new HttpError({ status: 418 }),
      '/',
      '강의에 접근할 권한이 없어요.',
    ],
  ])('when %s: tells it and leaves the room', async (_, cause, path, notice) => {
    localStorage.setItem(ACCESS_TOKEN_KEY, 'access');
    localStorage.setItem(REFRESH_TOKEN_KEY, 'refresh');
    const fakes = fakeLiveServices();
    fakes.failConnect(cause);
    const { router } = renderRoom(fakes.services);
    await waitFor(() => expect(router.state.location.pathname).toBe(path));
    expect(notices()).toEqual([notice]);
    expect(fakes.services.createPublisher).not.toHaveBeenCalled();
    // Replaced in the history: 'back' does not open the room again.
    expect(router.state.historyAction).toBe('REPLACE');
    // Only a 401 ends the session; the login then comes back to the room.
    const loggedOut = path === '/login';
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBe(loggedOut ? null : 'access');
    expect(takeReturnTo()).toBe(loggedOut ? '/live/teacher/7' : '/');
  });

  it('when the media service refuses to start the room (forbidden): like 418, goes to / and closes', async () => {
    const fakes = fakeLiveServices();
    fakes.publisher.startResult = Promise.reject(new LiveRequestError('forbidden', '강사만 할 수 있어요.'));
    const { router } = renderRoom(fakes.services);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(notices()).toEqual(['강의에 접근할 권한이 없어요.']);
    expect(fakes.publisher.closeCount).toBe(1);
    expect(fakes.signalling.closeCount).toBe(1);
  });

  it('still tells a 401 when the room was left before the answer came (the guard went to the login)', async () => {
    const fakes = fakeLiveServices();
    let refuse: (error: unknown) => void = () => {};
    fakes.services.connect = vi.fn(() => new Promise<never>((_, reject) => (refuse = reject)));
    const { router } = renderRoom(fakes.services);
    await act(() => router.navigate('/login'));
    act(() => refuse(new HttpError({ status: 401 })));
    await waitFor(() => expect(notices()).toEqual(['권한이 없어요. 다시 로그인해 주세요.']));
    expect(router.state.location.pathname).toBe('/login');
  });

  it.each([
    [
      'any other answer of the ticket (500)',
      new HttpError({ status: 500 }),
      '알 수 없는 오류가 발생했어요. 잠시 후 다시 시도해 주세요.',
    ],
    [
      "the media service's own refusal",
      new LiveRequestError('internal', '서버 오류예요.'),
      '알 수 없는 오류가 발생했어요. 잠시 후 다시 시도해 주세요.',
    ],
    [
      'a refused ticket at the media service',
      new LiveRequestError('unauthorized', '입장권이 유효하지 않아요.'),
      '알 수 없는 오류가 발생했어요. 잠시 후 다시 시도해 주세요.',
    ],
    [
      'no server reachable',
      new HttpError({ status: 0 }),
      '서버에 연결하지 못했어요. 잠시 후 다시 시도해 주세요.',
    ],
    [
      'the media service not answering',
      new LiveRequestError('timeout', '미디어 서버가 응답하지 않아요.'),
      '서버에 연결하지 못했어요. 잠시 후 다시 시도해 주세요.',
    ],
  ])('on %s: stays, says so, and closes the room', async (_, cause, message) => {
    const fakes = fakeLiveServices();
    fakes.publisher.startResult = Promise.reject(cause);
    const { router } = renderRoom(fakes.services);
    expect(await screen.findByText(message)).toHaveAttribute('role', 'alert');
    expect(router.state.location.pathname).toBe('/live/teacher/7');
    expect(status()).toHaveTextContent('연결 실패');
    expect(screen.getByRole('button', { name: '웹캠 켜기' })).toBeDisabled();
    expect(fakes.publisher.closeCount).toBe(1);
    expect(fakes.signalling.closeCount).toBe(1);
  });

  it('the status follows the media connection too: connecting while entering or recovering, failed when it gave up', async () => {
    const fakes = fakeLiveServices();
    let open: () => void = () => {};
    fakes.publisher.startResult = new Promise<void>((resolve) => (open = resolve));
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.publisher.started).toBe(1));
    act(() => fakes.signalling.setState('connected'));
    // The socket is up but the room is not open yet.
    expect(status()).toHaveTextContent('연결 중');
    await act(async () => open());
    expect(status()).toHaveTextContent('연결됨');
    act(() => fakes.publisher.setMediaState('connecting'));
    expect(status()).toHaveTextContent('연결 중');
    act(() => fakes.publisher.setMediaState('failed'));
    expect(status()).toHaveTextContent('연결 실패');
    act(() => fakes.publisher.setMediaState('connected'));
    expect(status()).toHaveTextContent('연결됨');
    // A lost socket says so whatever the media side last said.
    act(() => fakes.signalling.setState('connecting'));
    expect(status()).toHaveTextContent('연결 중');
  });

  it('leaving stops the devices and closes the publisher and the connection once, also on unmount', async () => {
    const fakes = fakeLiveServices();
    const { unmount } = renderRoom(fakes.services);
    await waitFor(() => expect(screen.getByRole('button', { name: '웹캠 켜기' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: '웹캠 켜기' }));
    await waitFor(() => expect(stateOf('webcam')).toBe('송출 중'));
    await userEvent.click(screen.getByRole('button', { name: '나가기' }));
    expect(fakes.captures[0]?.tracks[0]?.stopped).toBe(true);
    expect(fakes.publisher.closeCount).toBe(1);
    expect(fakes.signalling.closeCount).toBe(1);
    unmount();
    expect(fakes.publisher.closeCount).toBe(1);
    expect(fakes.signalling.closeCount).toBe(1);
    expect(fakes.signalling.count()).toBe(0);
    expect(fakes.publisher.count()).toBe(0);
  });
});
