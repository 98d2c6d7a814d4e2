import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Speaker } from '@sea/contract/live';
import { renderWithProviders } from '../../../testing/render.tsx';
import { useStudentRoom, type StudentSpeaking as Speaking } from '../hooks/use-student-room.ts';
import { LiveServicesContext } from '../live-services.ts';
import { asTrack, mediaPerTest, FakeTrack, fakeLiveServices } from '../test/fake-live-services.ts';
import { LIVE_TEXTS } from '../texts.ts';
import { StudentSpeaking } from './student-speaking.tsx';

const T = LIVE_TEXTS.speaking;

mediaPerTest();

function speaking(overrides: Partial<Speaking> = {}): Speaking {
  return {
    phase: 'idle',
    speakers: [],
    tracks: [],
    error: null,
    accept: vi.fn(),
    decline: vi.fn(),
    end: vi.fn(),
    ...overrides,
  };
}

const other: Speaker = { userId: 's2', nickname: '바다', state: 'speaking', producerId: 'p2' };

describe('StudentSpeaking', () => {
  it('shows nothing to do while not invited, but who else speaks, with an audio element per speaker', () => {
    const { container } = render(
      <StudentSpeaking
        speaking={speaking({ speakers: [other], tracks: [asTrack(new FakeTrack('audio'))] })}
      />,
    );
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText(T.others('바다'))).toBeInTheDocument();
    expect(container.querySelectorAll('audio[data-kind="speaker-audio"]')).toHaveLength(1);
  });

  it('an invitation asks in Korean, with accept and decline', async () => {
    const state = speaking({ phase: 'invited' });
    render(<StudentSpeaking speaking={state} />);
    expect(screen.getByRole('alertdialog', { name: T.prompt })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: T.accept }));
    expect(state.accept).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: T.decline }));
    expect(state.decline).toHaveBeenCalledOnce();
  });

  it('while the microphone is set up says so; while speaking shows 발언 중 and 발언 끝내기', async () => {
    const { rerender } = render(<StudentSpeaking speaking={speaking({ phase: 'starting' })} />);
    expect(screen.getByRole('status')).toHaveTextContent(T.starting);
    const state = speaking({ phase: 'speaking' });
    rerender(<StudentSpeaking speaking={state} />);
    expect(screen.getByRole('status')).toHaveTextContent('발언 중');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: T.endOwn }));
    expect(state.end).toHaveBeenCalledOnce();
  });

  it('a refused microphone is said in Korean', () => {
    render(<StudentSpeaking speaking={speaking({ error: T.micDenied })} />);
    expect(screen.getByRole('alert')).toHaveTextContent('마이크 사용을 허용하지 않아 발언할 수 없어요');
  });
});

function Room() {
  const room = useStudentRoom(7);
  return <StudentSpeaking speaking={room.speaking} />;
}

describe('the student room with speaking', () => {
  it("follows the speaker's phases and failures, plays the speakers' tracks, and closes the speaker on leave", async () => {
    const fake = fakeLiveServices();
    const { unmount } = renderWithProviders(
      <LiveServicesContext.Provider value={fake.services}>
        <Room />
      </LiveServicesContext.Provider>,
      { route: '/live/7', path: '/live/:classId' },
    );
    await screen.findByLabelText(T.label);
    act(() => fake.speaker.setPhase('invited'));
    await userEvent.click(screen.getByRole('button', { name: T.accept }));
    expect(fake.speaker.calls).toEqual(['accept']);
    act(() => {
      fake.speaker.emit('failed', T.micDenied);
      fake.speaker.setPhase('idle');
    });
    expect(screen.getByRole('alert')).toHaveTextContent(T.micDenied);
    act(() => fake.speaker.setPhase('invited')); // a new invitation clears the old failure
    expect(screen.queryByRole('alert')).toBeNull();
    act(() =>
      fake.viewer.emit('speakerTrackAdded', { producerId: 'p2', track: asTrack(new FakeTrack('audio')) }),
    );
    expect(document.querySelectorAll('audio[data-kind="speaker-audio"]')).toHaveLength(1);
    act(() => fake.viewer.emit('speakerTrackRemoved', { producerId: 'p2' }));
    expect(document.querySelectorAll('audio[data-kind="speaker-audio"]')).toHaveLength(0);
    unmount();
    expect(fake.speaker.closeCount).toBe(1);
  });
});
