import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { classItem } from '../test/class-fixtures.ts';
import { LiveRoomFrame } from './live-room-frame.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const detail = { url: '/api/classes/7', respond: () => ({ body: envelope(classItem({ is_active: true })) }) };

describe('live room frame', { timeout: 15_000 }, () => {
  it('shows the title, the instructor, the empty video slots and the chat it is given', async () => {
    mockFetch([detail]);
    renderWithProviders(<LiveRoomFrame classId={7} role="student" chat={<p>채팅 패널</p>} />, {
      route: '/live/student/7',
      path: '/live/student/:classId',
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: '바다에서 배우는 타입스크립트' }),
    ).toBeInTheDocument();
    expect(screen.getByText('문어선생 강사')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: '화면 공유' })).toHaveTextContent(
      '방송 화면이 여기에 나타나요',
    );
    expect(screen.getByRole('region', { name: '강사 카메라' })).toHaveTextContent(
      '강사 카메라가 여기에 나타나요',
    );
    expect(screen.getByRole('complementary', { name: '채팅' })).toHaveTextContent('채팅 패널');
    expect(screen.queryByRole('button', { name: '강의실 나가기' })).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: '방송 설정' })).not.toBeInTheDocument();
  });

  it('moves the webcam picture from corner to corner, off the page it covers', async () => {
    mockFetch([{ url: '/api/classes/7', respond: () => ({ body: envelope(classItem()) }) }]);
    renderWithProviders(<LiveRoomFrame classId={7} role="student" />);
    const webcam = screen.getByRole('region', { name: '강사 카메라' });
    expect(webcam).toHaveAttribute('data-corner', 'bottom-right');
    const move = within(webcam).getByRole('button', { name: '카메라 위치 옮기기' });
    await userEvent.click(move);
    expect(webcam).toHaveAttribute('data-corner', 'bottom-left');
    for (let step = 0; step < 3; step += 1) await userEvent.click(move);
    expect(webcam).toHaveAttribute('data-corner', 'bottom-right');
  });

  it('puts given videos in their slots', async () => {
    mockFetch([detail]);
    renderWithProviders(
      <LiveRoomFrame classId={7} role="student" screen={<p>화면 영상</p>} webcam={<p>카메라 영상</p>} />,
    );
    expect(screen.getByRole('region', { name: '화면 공유' })).toHaveTextContent('화면 영상');
    expect(screen.getByRole('region', { name: '강사 카메라' })).toHaveTextContent('카메라 영상');
    expect(screen.queryByText('방송 화면이 여기에 나타나요')).not.toBeInTheDocument();
  });

  it('asks the teacher whether the lecture is over before leaving for the dashboard', async () => {
    mockFetch([detail]);
    const onLeave = vi.fn(async () => undefined);
    const { router } = renderWithProviders(
      <LiveRoomFrame
        classId={7}
        role="teacher"
        controls={<button type="button">웹캠 켜기</button>}
        onLeave={onLeave}
      />,
      { route: '/live/teacher/7', path: '/live/teacher/:classId' },
    );
    expect(screen.getByRole('group', { name: '방송 설정' })).toContainElement(
      screen.getByRole('button', { name: '웹캠 켜기' }),
    );
    await userEvent.click(screen.getByRole('button', { name: '강의실 나가기' }));
    let dialog = screen.getByRole('alertdialog', { name: '강의를 종료할까요?' });
    // The dialog says what each way out does.
    expect(dialog).toHaveAccessibleDescription(
      /강의 종료를 누르면 모든 수강생이 강의실에서 나가고, 녹화한 강의로 다시보기를 만들어요.*잠시 나가기를 누르면 강의는 그대로 이어지고/,
    );
    await userEvent.click(within(dialog).getByRole('button', { name: '취소' }));
    expect(onLeave).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: '강의실 나가기' }));
    dialog = screen.getByRole('alertdialog', { name: '강의를 종료할까요?' });
    await userEvent.click(within(dialog).getByRole('button', { name: '강의 종료' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/teacher/7'));
    expect(onLeave).toHaveBeenCalledOnce();
  });

  it("steps out with '잠시 나가기' without ending the lecture", async () => {
    mockFetch([detail]);
    const onLeave = vi.fn(async () => undefined);
    const onStepOut = vi.fn(async () => undefined);
    const { router } = renderWithProviders(
      <LiveRoomFrame classId={7} role="teacher" onLeave={onLeave} onStepOut={onStepOut} />,
      { route: '/live/teacher/7', path: '/live/teacher/:classId' },
    );
    await userEvent.click(screen.getByRole('button', { name: '강의실 나가기' }));
    const dialog = screen.getByRole('alertdialog', { name: '강의를 종료할까요?' });
    await userEvent.click(within(dialog).getByRole('button', { name: '잠시 나가기' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/teacher/7'));
    expect(onStepOut).toHaveBeenCalledOnce();
    expect(onLeave).not.toHaveBeenCalled();
  });

  it('says so when the class cannot be loaded', async () => {
    mockFetch([
      { url: '/api/classes/7', respond: () => ({ status: 404, body: errorEnvelope(404, 'Not Found') }) },
    ]);
    renderWithProviders(<LiveRoomFrame classId={7} role="student" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('강의 정보를 불러오지 못했어요.');
  });
});
