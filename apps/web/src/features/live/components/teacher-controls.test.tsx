import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../testing/render.tsx';
import { useTeacherRoom } from '../hooks/use-teacher-room.ts';
import { LiveServicesContext, type LiveServices } from '../live-services.ts';
import { LiveRequestError } from '../signalling-client.ts';
import { FakeMediaStream, fakeLiveServices, type FakeTrack } from '../test/fake-live-services.ts';
import { LiveVideo } from './live-video.tsx';
import { TeacherControls } from './teacher-controls.tsx';

beforeEach(() => {
  vi.stubGlobal('MediaStream', FakeMediaStream);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function Room() {
  const room = useTeacherRoom(7);
  return (
    <>
      <TeacherControls room={room} />
      <LiveVideo track={room.previews.screen} label="화면 미리보기" placeholder="화면 꺼짐" />
      <LiveVideo track={room.previews.webcam} label="웹캠 미리보기" placeholder="웹캠 꺼짐" />
      <button type="button" onClick={room.leave}>
        나가기
      </button>
    </>
  );
}

function renderRoom(services: LiveServices) {
  return renderWithProviders(
    <LiveServicesContext.Provider value={services}>
      <Room />
    </LiveServicesContext.Provider>,
  );
}

const stateOf = (toggle: string) => document.querySelector(`[data-toggle="${toggle}"]`)?.textContent;

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

  it('shows why the room could not be opened', async () => {
    const fakes = fakeLiveServices();
    fakes.publisher.startResult = Promise.reject(
      new LiveRequestError('forbidden', '강사만 방송할 수 있어요.'),
    );
    renderRoom(fakes.services);
    expect(await screen.findByRole('alert')).toHaveTextContent('강사만 방송할 수 있어요.');
    expect(screen.getByRole('status', { name: '연결 상태' })).toHaveTextContent('연결 실패');
    expect(screen.getByRole('button', { name: '웹캠 켜기' })).toBeDisabled();
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
