import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CLASS_ID, connect, roomServerPerTest, renderPanel } from './test/room-panel.tsx';

const data = roomServerPerTest();

const participants = [
  { userId: 'student-1', nickname: '바다', avatar: '/uploads/avatars/bada.png' },
  { userId: 'student-2', nickname: '파도', avatar: null },
  { userId: 'student-3', nickname: ' ', avatar: null },
];

describe("LiveRoomPanel: the teacher's '참여자' tab", () => {
  it('lists the students in the room with who raised a hand and who is muted, time left', async () => {
    data.hands = [{ userId: 'student-1', nickname: '바다', raisedDate: new Date(0).toISOString() }];
    const { stomp } = renderPanel(data, 'teacher', 5_000, participants);
    await connect(stomp);
    const until = new Date(Date.now() + 4 * 60_000 + 30_000).toISOString();
    await act(async () =>
      stomp.last().subscriptions.get(`/topic/moderation/${CLASS_ID}`)?.(
        JSON.stringify({ type: 'muted', roomId: CLASS_ID, userId: 'student-2', until }),
      ),
    );

    await userEvent.click(screen.getByRole('tab', { name: '참여자 3명' }));
    const list = within(screen.getByRole('region', { name: '강의실에 있는 수강생' })).getByRole('list');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      '바다손 듦',
      expect.stringMatching(/^파도채팅 금지 4분 (29|30)초$/),
      '수강생',
    ]);
    expect(items[0]?.querySelector('img')).toHaveAttribute('src', '/uploads/avatars/bada.png');
    // The mute is lifted: the mark goes.
    await act(async () =>
      stomp.last().subscriptions.get(`/topic/moderation/${CLASS_ID}`)?.(
        JSON.stringify({ type: 'muted', roomId: CLASS_ID, userId: 'student-2', until: null }),
      ),
    );
    expect(within(list).getAllByRole('listitem')[1]).toHaveTextContent(/^파도$/);
  });

  it('says so while nobody is in the room', async () => {
    const { stomp } = renderPanel(data, 'teacher', 5_000, []);
    await connect(stomp);
    await userEvent.click(screen.getByRole('tab', { name: '참여자 0명' }));
    expect(screen.getByText('아직 들어온 수강생이 없어요.')).toBeInTheDocument();
  });

  it('is not there for a student', async () => {
    const { stomp } = renderPanel(data, 'student');
    await connect(stomp);
    expect(screen.queryByRole('tab', { name: /참여자/ })).not.toBeInTheDocument();
  });
});
