import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../testing/render.tsx';
import { useStudentRoom } from '../hooks/use-student-room.ts';
import { LiveServicesContext, type LiveServices } from '../live-services.ts';
import { FakeMediaStream, fakeLiveServices, mediaPerTest } from '../test/fake-live-services.ts';
import { renderRoom, stateOf } from '../test/teacher-room.tsx';
import { ConnectionBanner } from './connection-banner.tsx';
import { StudentStatus } from './student-stage.tsx';

mediaPerTest();
beforeEach(() => vi.stubGlobal('MediaStream', FakeMediaStream));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const banner = () => screen.queryByRole('alert');
const recording = () => screen.getByRole('status', { name: '녹화 상태' });
/** Moves the clock on by whole seconds, one tick at a time. */
const seconds = (count: number) => act(() => vi.advanceTimersByTime(count * 1_000));

function StudentRoom() {
  const room = useStudentRoom(7);
  return (
    <>
      <ConnectionBanner outage={room.outage} />
      <StudentStatus room={room} />
    </>
  );
}

function renderStudentRoom(services: LiveServices) {
  return renderWithProviders(
    <LiveServicesContext.Provider value={services}>
      <StudentRoom />
    </LiveServicesContext.Provider>,
    { route: '/live/student/7', path: '/live/student/:classId' },
  );
}

describe('the room says when its connection is lost', () => {
  it('teacher: a banner counting the seconds, 송출 and 녹화 shown stopped, all back once reconnected', async () => {
    const fakes = fakeLiveServices();
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.publisher.started).toBe(1));
    act(() => fakes.signalling.setState('connected'));
    act(() => fakes.publisher.emit('recordingState', { recording: true, paused: false }));
    await userEvent.click(screen.getByRole('button', { name: '웹캠 켜기' }));
    await waitFor(() => expect(stateOf('webcam')).toBe('송출 중'));
    expect(recording()).toHaveTextContent('녹화 중');
    expect(banner()).toBeNull();

    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    // The media service is killed: the signalling reconnects.
    act(() => fakes.signalling.setState('connecting'));
    expect(banner()).toHaveTextContent('연결이 끊겼어요. 다시 연결하는 중이에요 (0초)');
    expect(stateOf('webcam')).toBe('송출 멈춤');
    expect(recording()).toHaveTextContent('연결이 끊겨 녹화가 멈췄어요');
    expect(recording()).toHaveAttribute('data-recording', 'interrupted');
    expect(screen.getByRole('button', { name: '녹화 일시정지' })).toBeDisabled();
    seconds(3);
    expect(banner()).toHaveTextContent('(3초)');
    // Back, and the room is being entered again (the client's recovery starts with the reconnection): still
    // cut off.
    act(() => {
      fakes.signalling.setState('connected');
      fakes.publisher.setMediaState('connecting');
    });
    seconds(1);
    expect(banner()).toHaveTextContent('(4초)');

    act(() => fakes.publisher.setMediaState('connected'));
    expect(banner()).toBeNull();
    expect(stateOf('webcam')).toBe('송출 중');
    expect(recording()).toHaveTextContent('녹화 중');
    expect(recording()).toHaveAttribute('data-recording', 'on');
    expect(screen.getByRole('button', { name: '녹화 일시정지' })).toBeEnabled();

    // A second outage counts from zero again; recovery that gives up leaves the banner, not the labels.
    act(() => fakes.signalling.setState('connecting'));
    expect(banner()).toHaveTextContent('(0초)');
    act(() => fakes.signalling.setState('failed'));
    expect(banner()).toBeNull();
    expect(stateOf('webcam')).toBe('송출 멈춤');
    // Its many steps outlast the default 5 s on a machine shared by several suites.
  }, 15_000);

  it('teacher: nothing while the room is first being entered', async () => {
    const fakes = fakeLiveServices();
    fakes.publisher.startResult = new Promise(() => {});
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.publisher.started).toBe(1));
    act(() => fakes.signalling.setState('connecting'));
    expect(banner()).toBeNull();
  });

  it('student: the banner and the recording notice while cut off, gone once back', async () => {
    const fakes = fakeLiveServices();
    renderStudentRoom(fakes.services);
    await waitFor(() => expect(fakes.services.createViewer).toHaveBeenCalled());
    act(() => fakes.signalling.setState('connected'));
    act(() => fakes.viewer.emit('recordingState', { recording: true, paused: false }));
    await waitFor(() => expect(recording()).toHaveTextContent('이 강의는 녹화되고 있어요'));

    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    act(() => fakes.signalling.setState('connecting'));
    expect(banner()).toHaveTextContent('연결이 끊겼어요. 다시 연결하는 중이에요 (0초)');
    expect(recording()).toHaveTextContent('연결이 끊겨 녹화 상태를 알 수 없어요');
    seconds(2);
    expect(banner()).toHaveTextContent('(2초)');
    act(() => {
      fakes.signalling.setState('connected');
      fakes.viewer.setMediaState('connecting');
    });
    expect(banner()).toHaveTextContent('(2초)');
    act(() => fakes.viewer.setMediaState('connected'));
    expect(banner()).toBeNull();
    expect(recording()).toHaveTextContent('이 강의는 녹화되고 있어요');

    // The lecture ended (teacherLeft): no banner for a room that is over.
    act(() => fakes.viewer.emit('ended', undefined));
    expect(banner()).toBeNull();
  });
});
