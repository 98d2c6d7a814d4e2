import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setTokens } from '../../../lib/auth-tokens.ts';
import { DEFAULT_BANNERS, instructorImageFor } from '../../../lib/default-images.ts';
import { takeReturnTo } from '../../../lib/return-to.ts';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import type { MockRoute } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { classItem } from '../test/class-fixtures.ts';
import { ClassInfoPage } from './class-info-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

const detail: MockRoute = { url: '/api/classes/7', respond: () => ({ body: envelope(classItem()) }) };
const roleIs = (role: string): MockRoute => ({
  url: '/api/classes/7/role',
  respond: () => ({ body: envelope(role) }),
});

function renderInfo() {
  return renderWithProviders(<ClassInfoPage />, {
    route: '/lecture/info/7',
    path: '/lecture/info/:classId',
  });
}

describe('class introduction', { timeout: 15_000 }, () => {
  it('shows the class with its default banner, instructor picture and fallbacks for empty texts', async () => {
    mockFetch([
      {
        url: '/api/classes/7',
        respond: () => ({
          body: envelope(classItem({ instructor_info: null, prerequisite: '  ', object: '' })),
        }),
      },
    ]);
    renderInfo();
    expect(
      await screen.findByRole('heading', { level: 1, name: '바다에서 배우는 타입스크립트' }),
    ).toBeInTheDocument();
    expect(screen.getByText('프로그래밍')).toBeInTheDocument();
    expect(screen.getByText('매주 한 번, 실습 위주로 진행해요.')).toBeInTheDocument();
    expect(screen.getByText('아직 등록된 강의 목표가 없어요.')).toBeInTheDocument();
    expect(screen.getByText('아직 등록된 강사 소개가 없어요.')).toBeInTheDocument();
    expect(screen.getByText('따로 필요한 사전 지식이나 준비물이 없어요.')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: '바다에서 배우는 타입스크립트 강의 배너' })).toHaveAttribute(
      'src',
      DEFAULT_BANNERS[7],
    );
    expect(screen.getByRole('img', { name: '문어선생 강사' })).toHaveAttribute(
      'src',
      instructorImageFor('문어선생'),
    );
    const crumbs = screen.getByRole('navigation', { name: '현재 위치' });
    expect(crumbs).toHaveTextContent('홈');
    expect(crumbs).toHaveTextContent('내 강의실');
    expect(crumbs).toHaveTextContent('강의 소개');
  });

  it('sends a logged-out visitor who enrols to login and remembers the class', async () => {
    const { calls } = mockFetch([detail]);
    const { router } = renderInfo();
    await userEvent.click(await screen.findByRole('button', { name: '수강 신청하기' }));
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/lecture/info/7'));
    expect(takeReturnTo()).toBe('/lecture/info/7');
    expect(calls.some((call) => call.url.endsWith('/role'))).toBe(false);
  });

  it.each([
    ['강사', '/dashboard/teacher/7'],
    ['수강생', '/dashboard/student/7'],
  ])('offers the dashboard to a %s', async (role, target) => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    mockFetch([detail, roleIs(role)]);
    const { router } = renderInfo();
    await userEvent.click(await screen.findByRole('button', { name: '대시보드로 가기' }));
    expect(screen.queryByRole('button', { name: '수강 신청하기' })).not.toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe(target));
  });

  it('enrols a logged-in visitor with no role and goes to the enrolment page', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const { calls } = mockFetch([
      detail,
      roleIs('관계없음'),
      { method: 'POST', url: '/api/classes/7/enroll', respond: () => ({ body: envelope('success') }) },
    ]);
    const { router } = renderInfo();
    const button = await screen.findByRole('button', { name: '수강 신청하기' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await waitFor(() => expect(router.state.location.pathname).toBe('/enrollment/7'));
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.headers.get('authorization')).toBe('Bearer a');
  });

  it('treats a role that cannot be loaded as none', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    mockFetch([
      detail,
      { url: '/api/classes/7/role', respond: () => ({ status: 500, body: errorEnvelope(500, 'x') }) },
    ]);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    renderInfo();
    const button = await screen.findByRole('button', { name: '수강 신청하기' });
    await waitFor(() => expect(button).toBeEnabled());
  });

  it.each([
    [401, errorEnvelope(401, 'Unauthorized'), '권한이 없어요. 로그인 후 다시 시도해 주세요.'],
    [400, errorEnvelope(400, 'Bad Request', '수강 신청 기간이 아니에요.'), '수강 신청 기간이 아니에요.'],
    [400, { status: 400 }, '수강 신청에 실패했어요.'],
    [418, errorEnvelope(418, 'Role Error', '이미 수강 중인 강의예요.'), '이미 수강 중인 강의예요.'],
    [500, errorEnvelope(500, 'Internal Server Error'), '알 수 없는 오류가 발생했어요.'],
  ])('shows the catalogue text when enrolment answers %i', async (status, body, text) => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    mockFetch([
      detail,
      roleIs('관계없음'),
      { method: 'POST', url: '/api/classes/7/enroll', respond: () => ({ status, body }) },
    ]);
    const { router } = renderInfo();
    const button = await screen.findByRole('button', { name: '수강 신청하기' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(router.state.location.pathname).toBe('/lecture/info/7');
  });

  it('says so when the class cannot be loaded', async () => {
    mockFetch([
      { url: '/api/classes/7', respond: () => ({ status: 404, body: errorEnvelope(404, 'Not Found') }) },
    ]);
    renderInfo();
    expect(await screen.findByRole('alert')).toHaveTextContent('강의 정보를 불러오지 못했어요.');
  });

  it('offers 다시 시도 when the class failed to load, and shows it once it answers', async () => {
    let reachable = false;
    mockFetch([
      {
        url: '/api/classes/7',
        respond: () =>
          reachable
            ? { body: envelope(classItem()) }
            : { status: 503, body: errorEnvelope(503, 'unavailable') },
      },
    ]);
    renderInfo();
    const alert = await screen.findByRole('alert');
    reachable = true;
    await userEvent.click(within(alert).getByRole('button', { name: '다시 시도' }));
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('class introduction: schedule and replays up front', { timeout: 15_000 }, () => {
  const upcoming = (entries: unknown[]): MockRoute => ({
    url: '/api/classes/7/schedule/upcoming',
    respond: () => ({ body: envelope(entries) }),
  });
  const entry = (id: number, date: string, start: string, end: string, content: string) => ({
    id,
    class_id: 7,
    content,
    date,
    start_time: start,
    end_time: end,
  });

  it("lists the next live sessions in Korean, from Seoul's today", async () => {
    // The page's clock is the real one: ask for the entries relative to Seoul's today.
    const seoul = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' });
    const day = (days: number) => seoul.format(new Date(Date.now() + days * 86_400_000));
    mockFetch([
      detail,
      upcoming([
        entry(1, day(0), '23:00:00', '23:59:59', '3강 색 섞기'),
        entry(2, day(1), '09:30:00', '11:00:00', '4강 그림자'),
      ]),
    ]);
    renderInfo();
    const list = await screen.findByRole('list', { name: '다가오는 라이브 일정 목록' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('오늘 23:00 ~ 23:59');
    expect(items[0]).toHaveTextContent('3강 색 섞기');
    expect(items[1]).toHaveTextContent('내일 09:30 ~ 11:00');
    expect(screen.getByRole('heading', { level: 2, name: '다가오는 라이브 일정' })).toBeInTheDocument();
  });

  it("offers members '캘린더에 추가', which saves the class's schedule as an .ics file", async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const ics = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n';
    const { calls } = mockFetch([
      detail,
      upcoming([]),
      roleIs('수강생'),
      // The mock answers JSON: the file travels as a JSON string, which the client reads as the same text.
      { url: '/api/classes/7/schedule.ics', respond: () => ({ body: ics }) },
    ]);
    const blobs: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(class extends URL {}, {
        createObjectURL: (blob: Blob) => {
          blobs.push(blob);
          return 'blob:schedule';
        },
        revokeObjectURL: () => undefined,
      }),
    );
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderInfo();
    await userEvent.click(await screen.findByRole('button', { name: '캘린더에 추가' }));
    await waitFor(() => expect(saved).toEqual(['class-7.ics']));
    expect(await blobs[0]?.text()).toBe(ics);
    expect(blobs[0]?.type).toBe('text/calendar;charset=utf-8');
    const request = calls.find((call) => call.url.endsWith('/schedule.ics'));
    expect(request?.headers.get('authorization')).toBe('Bearer a');
  });

  it("offers no '캘린더에 추가' to a visitor who is not a member", async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    mockFetch([detail, upcoming([]), roleIs('관계없음')]);
    renderInfo();
    expect(await screen.findByText(/아직 예정된 라이브 일정이 없어요/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: '수강 신청하기' })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: '캘린더에 추가' })).not.toBeInTheDocument();
  });

  it('says clearly when no session is planned', async () => {
    mockFetch([detail, upcoming([])]);
    renderInfo();
    expect(await screen.findByText(/아직 예정된 라이브 일정이 없어요/)).toBeInTheDocument();
  });

  it('says when the schedule cannot be loaded', async () => {
    mockFetch([
      detail,
      {
        url: '/api/classes/7/schedule/upcoming',
        respond: () => ({ status: 500, body: errorEnvelope(500, 'x') }),
      },
    ]);
    renderInfo();
    expect(await screen.findByText('일정을 불러오지 못했어요.')).toBeInTheDocument();
  });

  it('tells a visitor how many replays enrolling opens', async () => {
    mockFetch([
      { url: '/api/classes/7', respond: () => ({ body: envelope(classItem({ replay_count: 3 })) }) },
      upcoming([]),
    ]);
    renderInfo();
    expect(await screen.findByText('다시보기 3개')).toBeInTheDocument();
    expect(screen.getByText('수강 신청하면 지난 라이브를 다시 볼 수 있어요.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /다시보기/ })).not.toBeInTheDocument();
  });

  it('leads a student to the replays on their dashboard', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    mockFetch([
      { url: '/api/classes/7', respond: () => ({ body: envelope(classItem({ replay_count: 2 })) }) },
      upcoming([]),
      roleIs('수강생'),
    ]);
    renderInfo();
    expect(await screen.findByRole('link', { name: '다시보기 2개 보러 가기' })).toHaveAttribute(
      'href',
      '/dashboard/student/7',
    );
  });

  it('shows no replay mark without replays', async () => {
    mockFetch([detail, upcoming([])]);
    renderInfo();
    await screen.findByText(/아직 예정된 라이브 일정이 없어요/);
    expect(screen.queryByText(/다시보기/)).not.toBeInTheDocument();
  });
});
