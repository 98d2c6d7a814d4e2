import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SessionChatMessage, SessionClassroom, SessionDetail } from '@sea/contract/sessions';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { ReplayPage } from './replay-page.tsx';
import { signedInPerTest } from '../../../testing/signed-in.ts';

function detail(overrides: Partial<SessionDetail['recording']> = {}): SessionDetail {
  return {
    id: 5,
    class_id: 7,
    started_at: '2026-11-24T10:00:00.000Z',
    ended_at: '2026-11-24T10:50:00.000Z',
    duration_s: 3_000,
    resume_s: 0,
    recording: {
      state: 'ready',
      progress: 100,
      title: '파도 읽기 1강',
      hidden: false,
      hls_url: '/api/replays/5/hls/index.m3u8?exp=1&sig=a',
      mp4_url: '/api/replays/5/replay.mp4?exp=1&sig=b',
      error: null,
      gaps: [],
      ...overrides,
    },
  };
}

function message(id: number, offsetMs: number, content: string): SessionChatMessage {
  return {
    id,
    user_id: `u${id}`,
    nickname: id === 1 ? '문어선생' : '해달',
    profile_image_path: null,
    role: id === 1 ? 'teacher' : 'student',
    content,
    created_at: '2026-11-24T10:00:00.000Z',
    offset_ms: offsetMs,
  };
}

const chat = [message(1, 2_000, '안녕하세요'), message(2, 65_000, '질문 있어요')];

const noClassroom: SessionClassroom = { questions: [], polls: [] };

/** A question asked at 30 s and a quiz opened at 40 s whose answer the teacher revealed, then a poll not revealed. */
const classroom: SessionClassroom = {
  questions: [
    {
      id: 1,
      roomId: 7,
      sessionId: 5,
      content: '예제 파일은 어디 있나요?',
      anonymous: true,
      author: null,
      authorId: null,
      mine: false,
      votes: 3,
      voted: false,
      answered: true,
      pinned: false,
      createdDate: '2026-11-24T10:00:30.000Z',
      offset_ms: 30_000,
    },
  ],
  polls: [
    {
      id: 1,
      roomId: 7,
      sessionId: 5,
      question: '파도의 주기는?',
      options: ['3초', '8초'],
      multiple: false,
      quiz: true,
      correct: [1],
      counts: [2, 5],
      voters: 7,
      closed: true,
      revealed: true,
      myVote: [1],
      createdDate: '2026-11-24T10:00:40.000Z',
      offset_ms: 40_000,
    },
    {
      id: 2,
      roomId: 7,
      sessionId: 5,
      question: '오늘 속도는 어땠나요?',
      options: ['빨라요', '좋아요'],
      multiple: false,
      quiz: false,
      correct: null,
      counts: null,
      voters: 4,
      closed: true,
      revealed: false,
      myVote: null,
      createdDate: '2026-11-24T10:00:50.000Z',
      offset_ms: 50_000,
    },
  ],
};

function routes(
  session: SessionDetail,
  chatAnswer: () => { status?: number; body: unknown },
  classroomAnswer: () => { status?: number; body: unknown } = () => ({ body: envelope(noClassroom) }),
) {
  return mockFetch([
    { url: '/api/classes/7/sessions/5', respond: () => ({ body: envelope(session) }) },
    { url: '/api/classes/7/sessions/5/chat', respond: chatAnswer },
    { url: '/api/classes/7/sessions/5/classroom', respond: classroomAnswer },
    {
      method: 'POST',
      url: '/api/classes/7/sessions/5/watch',
      respond: () => ({ body: envelope({ watched_s: 0, position_s: 0 }) }),
    },
  ]);
}

function renderPage(role: 'teacher' | 'student' = 'student', className?: string) {
  return renderWithProviders(<ReplayPage classId={7} sessionId={5} role={role} className={className} />);
}

/** The video inside the player, as the page's chat sync and watch beats see it. */
function playerVideo(): HTMLVideoElement {
  const video = document.querySelector('video');
  if (video === null) throw new Error('no video');
  return video;
}

function playTo(video: HTMLVideoElement, seconds: number) {
  video.currentTime = seconds;
  fireEvent(video, new Event('timeupdate'));
}

// jsdom's media elements have track lists without events, which media-chrome listens to: empty lists that
// are EventTargets, as in browsers.
const trackLists = new WeakMap<HTMLMediaElement, Map<string, EventTarget>>();
beforeAll(() => {
  // jsdom has no constructable style sheets for media-chrome's shadow roots; it says so for every control.
  const warn = console.warn.bind(console);
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('Media Chrome: No style sheet')) return;
    warn(...args);
  });
  for (const name of ['textTracks', 'audioTracks', 'videoTracks']) {
    Object.defineProperty(HTMLMediaElement.prototype, name, {
      configurable: true,
      get(this: HTMLMediaElement) {
        const lists = trackLists.get(this) ?? new Map<string, EventTarget>();
        trackLists.set(this, lists);
        let list = lists.get(name);
        if (list === undefined) {
          list = Object.assign(new EventTarget(), { length: 0, [Symbol.iterator]: [][Symbol.iterator] });
          lists.set(name, list);
        }
        return list;
      },
    });
  }
});

signedInPerTest();

afterAll(() => {
  vi.restoreAllMocks();
});

describe('replay page', { timeout: 15_000 }, () => {
  it('says which stretches were not recorded and marks them on the timeline', async () => {
    // The teacher paused 2:30 before the gap: the replay cuts it at 10:00 of its 40:25.
    routes(detail({ gaps: [{ from_s: 750, until_s: 1085, at_s: 600 }] }), () => ({ body: envelope(chat) }));
    renderPage();
    expect(await screen.findByText(/녹화되지 않은 구간: 12:30-18:05/, { selector: 'p' })).toBeInTheDocument();
    // Marked on the seek bar's scale, the player's length, once it knows it.
    expect(screen.queryByRole('list', { name: '재생 막대의 녹화되지 않은 구간' })).toBeNull();
    const video = playerVideo();
    Object.defineProperty(video, 'duration', { configurable: true, value: 2_425 });
    fireEvent(video, new Event('durationchange'));
    const marks = await screen.findByRole('list', { name: '재생 막대의 녹화되지 않은 구간' });
    const mark = within(marks).getByRole('listitem');
    expect(mark).toHaveTextContent('녹화되지 않은 구간 12:30-18:05');
    expect(mark).toHaveAttribute('title', '녹화되지 않은 구간 12:30-18:05');
    expect(mark.style.left).toBe(`${Math.round((600 / 2_425) * 1000) / 10}%`);
  });

  it('shows the title, the date and length, the player and the MP4 download', async () => {
    routes(detail(), () => ({ body: envelope(chat) }));
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: '파도 읽기 1강' })).toBeInTheDocument();
    expect(screen.getByText(/50분/)).toBeInTheDocument();
    const download = screen.getByRole('link', { name: 'MP4 내려받기' });
    expect(download).toHaveAttribute('href', '/api/replays/5/replay.mp4?exp=1&sig=b');
    expect(download).toHaveAttribute('download');
    expect(screen.getByRole('link', { name: '대시보드' })).toHaveAttribute('href', '/dashboard/student/7');
    expect(document.querySelector('media-controller')).not.toBeNull();
  });

  it('names an untitled replay by its date, once, and the class in the breadcrumb', async () => {
    routes(detail({ title: null }), () => ({ body: envelope([]) }));
    renderPage('teacher', '파도 읽기');
    expect(await screen.findByRole('heading', { level: 1, name: /2026년 11월 24일/ })).toBeInTheDocument();
    expect(screen.getAllByText(/2026년 11월 24일/)).toHaveLength(1);
    const crumbs = screen.getByRole('navigation', { name: '현재 위치' });
    expect(within(crumbs).getByRole('link', { name: '파도 읽기' })).toHaveAttribute(
      'href',
      '/dashboard/teacher/7',
    );
    expect(crumbs).toHaveTextContent(/다시보기$/);
  });

  it('shows each chat message when the video reaches it, and seeks to a clicked one', async () => {
    routes(detail(), () => ({ body: envelope(chat) }));
    renderPage();
    const panel = await screen.findByRole('region', { name: '채팅' });
    expect(await within(panel).findByText('이 시점까지 채팅이 없어요.')).toBeInTheDocument();
    await act(() => Promise.resolve());
    const video = playerVideo();

    playTo(video, 2);
    expect(await within(panel).findByText('안녕하세요')).toBeInTheDocument();
    expect(within(panel).queryByText('질문 있어요')).not.toBeInTheDocument();
    expect(within(panel).getByText('강사')).toBeInTheDocument();

    playTo(video, 70);
    expect(await within(panel).findByText('질문 있어요')).toBeInTheDocument();

    await userEvent.click(within(panel).getByRole('button', { name: /안녕하세요.*0:02로 이동/ }));
    expect(video.currentTime).toBe(2);

    playTo(video, 1);
    await waitFor(() => expect(within(panel).queryByText('안녕하세요')).not.toBeInTheDocument());
  });

  it('shows the session’s questions and polls among the messages at their moments, each seeking', async () => {
    routes(
      detail(),
      () => ({ body: envelope(chat) }),
      () => ({ body: envelope(classroom) }),
    );
    renderPage();
    const panel = await screen.findByRole('region', { name: '채팅' });
    await act(() => Promise.resolve());
    const video = playerVideo();

    playTo(video, 35);
    const asked = await within(panel).findByRole('button', { name: /질문.*예제 파일은 어디 있나요\?/ });
    expect(asked).toHaveTextContent('익명');
    expect(asked).toHaveTextContent('추천 3');
    expect(asked).toHaveTextContent('답변 완료');
    expect(within(panel).queryByText('파도의 주기는?')).not.toBeInTheDocument();

    playTo(video, 70);
    const quiz = await within(panel).findByRole('button', { name: /퀴즈.*파도의 주기는\?/ });
    expect(quiz).toHaveTextContent('7명 참여');
    expect(quiz).toHaveTextContent(/3초\s*2표/);
    expect(quiz).toHaveTextContent(/8초 \(내 답\)정답\s*5표/);
    const poll = within(panel).getByRole('button', { name: /투표.*오늘 속도는 어땠나요\?/ });
    expect(poll).toHaveTextContent('결과는 공개되지 않았어요.');
    expect(poll).not.toHaveTextContent(/\d표/);
    // In time order with the chat: the teacher's hello, the question, the quiz, the poll, the student's message.
    const items = within(panel)
      .getAllByRole('listitem')
      .map((item) => item.textContent ?? '');
    expect(items.map((text) => text.slice(0, 12))).toEqual([
      expect.stringContaining('문어선생'),
      expect.stringContaining('질문'),
      expect.stringContaining('퀴즈'),
      expect.stringContaining('투표'),
      expect.stringContaining('해달'),
    ]);

    await userEvent.click(quiz);
    expect(video.currentTime).toBe(40);
    await userEvent.click(asked);
    expect(video.currentTime).toBe(30);
  });

  it('keeps the chat when the questions and polls cannot be loaded, and says so', async () => {
    routes(
      detail(),
      () => ({ body: envelope(chat) }),
      () => ({ status: 500, body: errorEnvelope(500, 'Internal Server Error') }),
    );
    renderPage();
    const panel = await screen.findByRole('region', { name: '채팅' });
    expect(await within(panel).findByRole('alert')).toHaveTextContent('질문과 투표를 불러오지 못했어요.');
    await act(() => Promise.resolve());
    playTo(playerVideo(), 3);
    expect(await within(panel).findByText('안녕하세요')).toBeInTheDocument();
  });

  it('reports watching to the server: play, then the watched stretch and the stop on pause', async () => {
    const { calls } = routes(detail({}), () => ({ body: envelope([]) }));
    renderPage();
    await screen.findByRole('region', { name: '채팅' });
    // The beats start listening once the page has the player's video, one render after the player shows.
    await act(() => Promise.resolve());
    const video = playerVideo();
    fireEvent(video, new Event('play'));
    video.currentTime = 12.34;
    fireEvent(video, new Event('pause'));
    const beats = async () =>
      Promise.all(
        calls
          .filter((call) => call.method === 'POST' && call.url.endsWith('/api/classes/7/sessions/5/watch'))
          .map((call) => call.clone().json() as Promise<unknown>),
      );
    await waitFor(async () =>
      expect(await beats()).toEqual([
        { position_s: 0, playing: true },
        { position_s: 12.3, playing: true, from_s: 0 },
        { position_s: 12.3, playing: false },
      ]),
    );
    const beat = calls.find((call) => call.method === 'POST');
    expect(beat?.headers.get('authorization')).toBe('Bearer a');
  });

  it('plays the MP4 where neither hls.js nor the browser plays HLS, from the resume point', async () => {
    routes({ ...detail(), resume_s: 42 }, () => ({ body: envelope([]) }));
    renderPage();
    await screen.findByRole('region', { name: '채팅' });
    // jsdom has no Media Source Extensions and plays no HLS: the fallback is the signed MP4.
    await waitFor(() =>
      expect(playerVideo().getAttribute('src')).toBe('/api/replays/5/replay.mp4?exp=1&sig=b'),
    );
    const video = playerVideo();
    fireEvent(video, new Event('loadedmetadata'));
    expect(video.currentTime).toBe(42);
  });

  it('says so when the chat cannot be loaded, and still plays', async () => {
    routes(detail(), () => ({ status: 500, body: errorEnvelope(500, 'Internal Server Error') }));
    renderPage();
    const panel = await screen.findByRole('region', { name: '채팅' });
    expect(await within(panel).findByRole('alert')).toHaveTextContent('채팅을 불러오지 못했어요.');
    expect(document.querySelector('video')).not.toBeNull();
  });

  it('has no player for a replay that is not ready, and says where it stands', async () => {
    routes(detail({ state: 'processing', progress: 42, hls_url: null, mp4_url: null }), () => ({
      body: envelope([]),
    }));
    renderPage();
    expect(await screen.findByText('아직 볼 수 있는 다시보기가 아니에요.')).toBeInTheDocument();
    expect(screen.getByText('처리 중 42%')).toBeInTheDocument();
    expect(document.querySelector('video')).toBeNull();
    expect(screen.queryByRole('link', { name: 'MP4 내려받기' })).not.toBeInTheDocument();
  });

  it('says a lecture taught without recording was not recorded, with no 아직', async () => {
    routes(detail({ state: 'none', hls_url: null, mp4_url: null }), () => ({ body: envelope([]) }));
    renderPage();
    expect(await screen.findByText('이 강의는 녹화하지 않았어요.')).toBeInTheDocument();
    expect(screen.queryByText(/아직/)).not.toBeInTheDocument();
  });

  it("shows the server's reason when the replay cannot be opened, asking nothing more", async () => {
    const { calls } = mockFetch([
      {
        url: '/api/classes/7/sessions/5',
        respond: () => ({ status: 418, body: errorEnvelope(418, 'Role Error', '수강생만 볼 수 있어요.') }),
      },
      { url: '/api/classes/7/sessions/5/chat', respond: () => ({ body: envelope([]) }) },
      { url: '/api/classes/7/sessions/5/classroom', respond: () => ({ body: envelope(noClassroom) }) },
    ]);
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('수강생만 볼 수 있어요.');
    expect(screen.getByRole('link', { name: '대시보드로 돌아가기' })).toBeInTheDocument();
    // The chat and the questions would be refused the same way: a stranger's console gets one 418, not three.
    expect(calls.map((call) => new URL(call.url).pathname)).toEqual(['/api/classes/7/sessions/5']);
  });
});
