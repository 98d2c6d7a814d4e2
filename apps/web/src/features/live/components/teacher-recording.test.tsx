import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../testing/render.tsx';
import { useTeacherRoom } from '../hooks/use-teacher-room.ts';
import { LiveServicesContext } from '../live-services.ts';
import { LiveRequestError } from '../signalling-client.ts';
import { mediaPerTest, fakeLiveServices } from '../test/fake-live-services.ts';
import { TeacherControls } from './teacher-controls.tsx';
import { renderRoom } from '../test/teacher-room.tsx';

mediaPerTest();

describe('teacher room recording', () => {
  it("shows '녹화 중' in red with a pause control, and '녹화 일시정지' with resume once paused", async () => {
    const fakes = fakeLiveServices();
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.publisher.started).toBe(1));
    // A recorded session is the default: the publisher is made to record.
    expect(fakes.services.createPublisher).toHaveBeenCalledWith(fakes.signalling, { record: true });
    expect(screen.queryByRole('status', { name: '녹화 상태' })).not.toBeInTheDocument();
    act(() => fakes.publisher.emit('recordingState', { recording: true, paused: false }));
    const indicator = screen.getByRole('status', { name: '녹화 상태' });
    expect(indicator).toHaveTextContent('녹화 중');
    expect(indicator).toHaveAttribute('data-recording', 'on');

    await userEvent.click(screen.getByRole('button', { name: '녹화 일시정지' }));
    expect(fakes.publisher.recordingCalls).toEqual([false]);
    await waitFor(() => expect(indicator).toHaveTextContent('녹화 일시정지'));
    expect(indicator).toHaveAttribute('data-recording', 'paused');
    await userEvent.click(screen.getByRole('button', { name: '녹화 다시 시작' }));
    expect(fakes.publisher.recordingCalls).toEqual([false, true]);
    await waitFor(() => expect(indicator).toHaveTextContent('녹화 중'));
  });

  it('a recording the media service cannot write says so in place of 녹화 중, until it resumes', async () => {
    const fakes = fakeLiveServices();
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.publisher.started).toBe(1));
    act(() => fakes.publisher.emit('recordingState', { recording: true, paused: false }));
    const indicator = screen.getByRole('status', { name: '녹화 상태' });
    act(() => fakes.publisher.emit('recordingState', { recording: true, paused: false, stalled: true }));
    expect(indicator).toHaveTextContent('저장 공간이 부족해 녹화가 멈췄어요');
    expect(indicator).not.toHaveTextContent('녹화 중');
    expect(indicator).toHaveAttribute('data-recording', 'stalled');
    act(() => fakes.publisher.emit('recordingState', { recording: true, paused: false, stalled: false }));
    expect(indicator).toHaveTextContent('녹화 중');
  });

  it('a refused pause leaves the state as the media service last said', async () => {
    const fakes = fakeLiveServices();
    fakes.publisher.recordingAnswer = () => Promise.reject(new LiveRequestError('conflict', '안 돼요'));
    renderRoom(fakes.services);
    await waitFor(() => expect(fakes.publisher.started).toBe(1));
    act(() => fakes.publisher.emit('recordingState', { recording: true, paused: false }));
    const pause = screen.getByRole('button', { name: '녹화 일시정지' });
    await userEvent.click(pause);
    await waitFor(() => expect(pause).toBeEnabled());
    expect(screen.getByRole('status', { name: '녹화 상태' })).toHaveTextContent('녹화 중');
  });

  it("a lecture started without recording says '녹화하지 않음', with no pause control", async () => {
    const fakes = fakeLiveServices();
    renderWithProviders(
      <LiveServicesContext.Provider value={fakes.services}>
        <NotRecordedRoom />
      </LiveServicesContext.Provider>,
      { route: '/live/teacher/7', path: '/live/teacher/:classId' },
    );
    await waitFor(() => expect(fakes.publisher.started).toBe(1));
    expect(fakes.services.createPublisher).toHaveBeenCalledWith(fakes.signalling, { record: false });
    act(() => fakes.publisher.emit('recordingState', { recording: false, paused: false }));
    expect(screen.getByRole('status', { name: '녹화 상태' })).toHaveTextContent('녹화하지 않음');
    expect(screen.queryByRole('button', { name: '녹화 일시정지' })).not.toBeInTheDocument();
  });
});

function NotRecordedRoom() {
  const room = useTeacherRoom(7, { record: false });
  return <TeacherControls room={room} />;
}
