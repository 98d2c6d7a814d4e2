import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../testing/render.tsx';
import { LiveServicesContext } from '../live-services.ts';
import { fakeLiveServices, mediaPerTest } from '../test/fake-live-services.ts';
import { useTeacherRoom } from './use-teacher-room.ts';

mediaPerTest();

/** The room's students as the hook gives them, one line each. */
function Participants() {
  const room = useTeacherRoom(7);
  return (
    <ul aria-label="참여자">
      {room.participants.map(({ userId, nickname }) => (
        <li key={userId}>{`${userId}:${nickname}`}</li>
      ))}
    </ul>
  );
}

describe('useTeacherRoom: participants', () => {
  it('follows what the media service tells as students come and go', async () => {
    const fakes = fakeLiveServices();
    renderWithProviders(
      <LiveServicesContext.Provider value={fakes.services}>
        <Participants />
      </LiveServicesContext.Provider>,
      { route: '/live/teacher/7', path: '/live/teacher/:classId' },
    );
    await waitFor(() => expect(fakes.publisher.started).toBe(1));
    const lines = () => screen.queryAllByRole('listitem').map((item) => item.textContent);
    expect(lines()).toEqual([]);
    act(() =>
      fakes.publisher.emit('participants', [
        { userId: 's1', nickname: '바다' },
        { userId: 's2', nickname: '파도' },
      ]),
    );
    expect(lines()).toEqual(['s1:바다', 's2:파도']);
    act(() => fakes.publisher.emit('participants', [{ userId: 's2', nickname: '파도' }]));
    expect(lines()).toEqual(['s2:파도']);
  });
});
