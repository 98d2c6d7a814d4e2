import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Speaker } from '@sea/contract/live';
import { renderWithProviders } from '../../../testing/render.tsx';
import { useTeacherRoom, type TeacherSpeaking } from '../hooks/use-teacher-room.ts';
import { LiveServicesContext } from '../live-services.ts';
import { LiveRequestError } from '../signalling-client.ts';
import { asTrack, mediaPerTest, FakeTrack, fakeLiveServices } from '../test/fake-live-services.ts';
import { LIVE_TEXTS } from '../texts.ts';
import { InviteToSpeak } from './invite-to-speak.tsx';
import { TeacherSpeakers } from './teacher-speakers.tsx';

const T = LIVE_TEXTS.speaking;

mediaPerTest();

function speaking(speakers: Speaker[], overrides: Partial<TeacherSpeaking> = {}): TeacherSpeaking {
  return { speakers, tracks: [], error: null, invite: vi.fn(), end: vi.fn(), ...overrides };
}
const seat = (userId: string, state: Speaker['state']): Speaker => ({
  userId,
  nickname: `학생${userId}`,
  state,
  producerId: state === 'speaking' ? `p-${userId}` : null,
});

describe('InviteToSpeak', () => {
  it("invites a raised hand's student with 발언 요청", async () => {
    const state = speaking([]);
    render(<InviteToSpeak speaking={state} userId="7" />);
    await userEvent.click(screen.getByRole('button', { name: T.invite }));
    expect(state.invite).toHaveBeenCalledWith('7');
  });

  it('shows where an invited or speaking student stands instead of the button', () => {
    const { rerender } = render(<InviteToSpeak speaking={speaking([seat('7', 'invited')])} userId="7" />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByText(T.waiting)).toBeInTheDocument();
    rerender(<InviteToSpeak speaking={speaking([seat('7', 'speaking')])} userId="7" />);
    expect(screen.getByText(T.now)).toBeInTheDocument();
  });

  it('is off while two students are invited or speaking', () => {
    render(<InviteToSpeak speaking={speaking([seat('1', 'speaking'), seat('2', 'invited')])} userId="3" />);
    expect(screen.getByRole('button', { name: T.invite })).toBeDisabled();
  });
});

describe('TeacherSpeakers', () => {
  it('lists each speaker with 발언 종료, plays their voices, and shows a refusal', async () => {
    const state = speaking([seat('1', 'speaking'), seat('2', 'invited')], {
      tracks: [asTrack(new FakeTrack('audio'))],
      error: '동시에 발언할 수 있는 수강생은 2명까지예요. 먼저 다른 수강생의 발언을 끝내 주세요.',
    });
    const { container } = render(<TeacherSpeakers speaking={state} />);
    expect(screen.getByText('🎙 학생1')).toBeInTheDocument();
    expect(screen.getByText(T.now)).toBeInTheDocument();
    expect(screen.getByText(T.waiting)).toBeInTheDocument();
    const ends = screen.getAllByRole('button', { name: T.end });
    expect(ends).toHaveLength(2);
    await userEvent.click(ends[1] as HTMLElement);
    expect(state.end).toHaveBeenCalledWith('2');
    expect(screen.getByRole('alert')).toHaveTextContent('2명까지');
    expect(container.querySelectorAll('audio[data-kind="speaker-audio"]')).toHaveLength(1);
  });
});

function Room({ hand }: { hand: string }) {
  const room = useTeacherRoom(7);
  return (
    <>
      <InviteToSpeak speaking={room.speaking} userId={hand} />
      <TeacherSpeakers speaking={room.speaking} />
    </>
  );
}

describe('the teacher room with speaking', () => {
  it("invites through the listener, shows the media service's refusal, follows the speakers and their voices", async () => {
    const fake = fakeLiveServices();
    const { unmount } = renderWithProviders(
      <LiveServicesContext.Provider value={fake.services}>
        <Room hand="3" />
      </LiveServicesContext.Provider>,
      { route: '/live/teacher/7', path: '/live/teacher/:classId' },
    );
    await waitFor(() => expect(fake.publisher.started).toBe(1));
    const refusal = '동시에 발언할 수 있는 수강생은 2명까지예요. 먼저 다른 수강생의 발언을 끝내 주세요.';
    fake.listener.refusal = new LiveRequestError('conflict', refusal);
    await userEvent.click(screen.getByRole('button', { name: T.invite }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);

    fake.listener.refusal = null;
    await userEvent.click(screen.getByRole('button', { name: T.invite }));
    expect(fake.listener.invited).toEqual(['3']);
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    act(() => {
      fake.listener.emit('speakersChanged', [seat('3', 'speaking')]);
      fake.listener.emit('trackAdded', { producerId: 'p-3', track: asTrack(new FakeTrack('audio')) });
    });
    expect(screen.getAllByText(T.now)).toHaveLength(2); // beside the hand, and in the speakers
    expect(document.querySelectorAll('audio[data-kind="speaker-audio"]')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: T.end }));
    expect(fake.listener.ended).toEqual(['3']);
    act(() => fake.listener.emit('trackRemoved', { producerId: 'p-3' }));
    expect(document.querySelectorAll('audio[data-kind="speaker-audio"]')).toHaveLength(0);
    unmount();
    expect(fake.listener.closeCount).toBe(1);
  });
});
