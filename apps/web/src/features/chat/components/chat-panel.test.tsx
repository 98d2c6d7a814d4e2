import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@sea/contract/chat';
import type { Poll, Question, RaisedHand } from '@sea/contract/classroom';
import { envelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { DEFAULT_CHAT_AVATARS } from '../../../lib/default-images.ts';
import { hashIndex } from '../../../lib/string-hash.ts';
import { RoomConnection } from '../../../lib/realtime/room-connection.ts';
import { formatChatTime } from '../format-chat-time.ts';
import { chatMessage, fakeStompFactory } from '../../../testing/fake-stomp.ts';
import { ChatPanel } from './chat-panel.tsx';

const CLASS_ID = 7;
let history: ChatMessage[];
let questions: Question[];
let hands: RaisedHand[];
let polls: Poll[];

beforeEach(() => {
  localStorage.setItem('accessToken', 'token');
  mockFetch([
    {
      url: '/api/users',
      respond: () => ({
        body: envelope({ id: 'me', nickname: '나', email: null, profile_image_path: null }),
      }),
    },
    { url: '/api/classes/7/questions', respond: () => ({ body: envelope({ sessionId: 1, questions }) }) },
    { url: '/api/classes/7/polls', respond: () => ({ body: envelope({ sessionId: 1, polls }) }) },
    {
      url: '/api/classes/7/hands',
      respond: () => ({ body: envelope({ roomId: 7, count: hands.length, raised: false, queue: hands }) }),
    },
  ]);
  questions = [];
  hands = [];
  polls = [];
  history = [
    chatMessage({ id: 1, writer: '고래선생', writer_id: 'teacher', role: 'teacher', content: '안녕하세요' }),
    chatMessage({ id: 2, writer: null, writer_id: null, content: '탈퇴한 사람의 말' }),
    chatMessage({
      id: 3,
      writer: '나',
      writer_id: 'me',
      content: '제 메시지예요',
      profile_image_path: '/uploads/avatars/me.png',
    }),
  ];
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPanel(role: 'teacher' | 'student' = 'student', reconnectDelayMs = 5_000) {
  const stomp = fakeStompFactory();
  const createConnection = (classId: number) =>
    new RoomConnection({
      classId,
      url: 'ws://127.0.0.1:1/ws',
      getToken: () => 'token',
      fetchHistory: async (_classId, after) =>
        after === undefined ? history : history.filter((message) => message.id > after),
      createClient: stomp.factory,
      reconnectDelayMs,
    });
  renderWithProviders(<ChatPanel classId={CLASS_ID} role={role} createConnection={createConnection} />);
  return { stomp };
}

async function connect(stomp: ReturnType<typeof fakeStompFactory>): Promise<void> {
  await waitFor(() => expect(stomp.clients.length).toBeGreaterThan(0));
  await act(async () => stomp.last().connectAndConfirm());
  await screen.findByText('안녕하세요');
}

const list = (): HTMLElement => screen.getByRole('list', { name: '채팅 메시지' });

describe('ChatPanel', () => {
  it('shows the history with writers, default avatars, the anonymous fallback, times and my own messages', async () => {
    const { stomp } = renderPanel();
    await connect(stomp);
    const items = within(list()).getAllByRole('listitem');
    expect(items).toHaveLength(3);

    const [teacherItem, anonymousItem, mineItem] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(teacherItem).getByText('고래선생')).toBeInTheDocument();
    // The teacher's badge; nobody else has one.
    expect(within(teacherItem).getByText('강사')).toBeInTheDocument();
    expect(within(anonymousItem).queryByText('강사')).toBeNull();
    expect(teacherItem.querySelector('img')?.getAttribute('src')).toBe(
      DEFAULT_CHAT_AVATARS[hashIndex('고래선생', 3)],
    );
    expect(within(teacherItem).getByText(formatChatTime(history[0]?.createdDate ?? ''))).toBeInTheDocument();
    expect(within(anonymousItem).getByText('익명')).toBeInTheDocument();
    expect(anonymousItem.querySelector('img')?.getAttribute('src')).toBe(
      DEFAULT_CHAT_AVATARS[hashIndex('익명', 3)],
    );
    await waitFor(() => expect(within(mineItem).getByText('내 메시지')).toBeInTheDocument());
    expect(mineItem).toHaveAttribute('data-mine', 'true');
    expect(teacherItem).not.toHaveAttribute('data-mine');
  });

  it('formats the time as hour and minute', () => {
    expect(formatChatTime('2026-11-21T06:05:00.000Z')).toMatch(/\d{1,2}:05/);
    expect(formatChatTime('nonsense')).toBe('');
  });

  it('sends on Enter, makes a new line on Shift+Enter, and disables sending while disconnected', async () => {
    const user = userEvent.setup();
    const { stomp } = renderPanel();
    const input = screen.getByRole('textbox', { name: '보낼 메시지' });
    const send = screen.getByRole('button', { name: '보내기' });
    expect(screen.getByRole('status')).toHaveTextContent('연결 중');
    expect(send).toBeDisabled();

    await connect(stomp);
    expect(screen.getByRole('status')).toHaveTextContent('연결됨');
    await user.type(input, '첫 줄{Shift>}{Enter}{/Shift}둘째 줄');
    expect(input).toHaveValue('첫 줄\n둘째 줄');
    expect(stomp.last().published).toEqual([]);
    await user.keyboard('{Enter}');
    expect(stomp.last().published).toEqual([
      { destination: '/app/hello', body: { roomId: CLASS_ID, content: '첫 줄\n둘째 줄' } },
    ]);
    expect(input).toHaveValue('');

    await act(async () => stomp.last().drop());
    expect(screen.getByRole('status')).toHaveTextContent('연결 끊김');
    await user.type(input, '끊긴 동안{Enter}');
    expect(stomp.last().published).toHaveLength(1);
    expect(input).toHaveValue('끊긴 동안');
    expect(send).toBeDisabled();
  });

  it('shows the server refusal of my message', async () => {
    const { stomp } = renderPanel();
    await connect(stomp);
    await act(async () =>
      stomp
        .last()
        .refuse({ code: 'too-long', message: '메시지는 1,000자까지 보낼 수 있어요.', receipt: null }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('1,000자까지');
  });

  it('follows new messages at the bottom but does not yank a reader who scrolled up', async () => {
    const { stomp } = renderPanel();
    await connect(stomp);
    const element = list();
    let scrollHeight = 1000;
    Object.defineProperty(element, 'scrollHeight', { configurable: true, get: () => scrollHeight });
    Object.defineProperty(element, 'clientHeight', { configurable: true, get: () => 200 });

    // At the bottom: a new message scrolls along.
    element.scrollTop = 800;
    element.dispatchEvent(new Event('scroll'));
    scrollHeight = 1100;
    await act(async () => stomp.last().deliver(CLASS_ID, chatMessage({ id: 10, content: '따라가요' })));
    expect(element.scrollTop).toBe(1100);

    // Scrolled up to read: the position stays, and a button offers the newest message.
    element.scrollTop = 100;
    element.dispatchEvent(new Event('scroll'));
    scrollHeight = 1200;
    await act(async () => stomp.last().deliver(CLASS_ID, chatMessage({ id: 11, content: '그대로예요' })));
    expect(element.scrollTop).toBe(100);
    const jump = screen.getByRole('button', { name: '새 메시지 보기' });
    await userEvent.click(jump);
    expect(element.scrollTop).toBe(1200);
    expect(screen.queryByRole('button', { name: '새 메시지 보기' })).not.toBeInTheDocument();
  });

  it('closes the connection when the panel is left', async () => {
    const stomp = fakeStompFactory();
    const createConnection = (classId: number) =>
      new RoomConnection({
        classId,
        url: 'ws://x/ws',
        getToken: () => null,
        fetchHistory: async () => [],
        createClient: stomp.factory,
      });
    const { unmount } = renderWithProviders(
      <ChatPanel classId={CLASS_ID} createConnection={createConnection} />,
    );
    await waitFor(() => expect(stomp.clients.length).toBeGreaterThan(0));
    unmount();
    expect(stomp.clients.every((client) => client.deactivated)).toBe(true);
  });

  it('shows after a reconnect neither the message nor the question deleted while it was offline', async () => {
    questions = [question({ id: 1, content: '남을 질문' }), question({ id: 2, content: '지워질 질문' })];
    const { stomp } = renderPanel('student', 20);
    await connect(stomp);
    await userEvent.click(await screen.findByRole('tab', { name: '질문 2' }));
    await screen.findByText('지워질 질문');

    await act(async () => stomp.last().drop());
    // While this client is away the teacher deletes one message and one question; nobody tells it live.
    history = history.filter((message) => message.id !== 2);
    questions = [question({ id: 1, content: '남을 질문' })];
    await waitFor(() => expect(stomp.clients).toHaveLength(2));
    await act(async () => stomp.last().connectAndConfirm());

    await screen.findByRole('tab', { name: '질문 1' });
    expect(screen.queryByText('지워질 질문')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: '채팅' }));
    await waitFor(() => expect(within(list()).getAllByRole('listitem')).toHaveLength(2));
    expect(screen.queryByText('탈퇴한 사람의 말')).not.toBeInTheDocument();
  });

  it('shows a joining student the slow mode and their own mute the server tells on subscribing', async () => {
    const { stomp } = renderPanel();
    await connect(stomp);
    const moderation = (body: unknown) =>
      act(async () => stomp.last().subscriptions.get('/topic/moderation/7')?.(JSON.stringify(body)));
    expect(screen.queryByText(/천천히 모드/)).not.toBeInTheDocument();
    const until = new Date(Date.now() + 1_500).toISOString();
    await moderation({ type: 'slowMode', roomId: CLASS_ID, seconds: 30 });
    await moderation({ type: 'muted', roomId: CLASS_ID, userId: 'me', until });
    expect(screen.getByText('천천히 모드: 30초에 한 번씩 보낼 수 있어요.')).toBeInTheDocument();
    // Someone else's mute is not mine.
    await moderation({ type: 'muted', roomId: CLASS_ID, userId: 'other', until });
    await waitFor(() =>
      expect(
        screen.getByText(
          `강사가 채팅과 질문을 잠시 막았어요. ${formatChatTime(until)}부터 다시 쓸 수 있어요.`,
        ),
      ).toBeInTheDocument(),
    );
    // The mute runs out by itself; slow mode lasts until the teacher turns it off.
    await waitFor(() => expect(screen.queryByText(/잠시 막았어요/)).not.toBeInTheDocument(), {
      timeout: 3_000,
    });
    await moderation({ type: 'slowMode', roomId: CLASS_ID, seconds: 0 });
    expect(screen.queryByText(/천천히 모드/)).not.toBeInTheDocument();
  });

  it("shows the teacher the room's current slow mode in the selector", async () => {
    const { stomp } = renderPanel('teacher');
    await connect(stomp);
    await act(async () =>
      stomp.last().subscriptions.get('/topic/moderation/7')?.(
        JSON.stringify({ type: 'slowMode', roomId: CLASS_ID, seconds: 30 }),
      ),
    );
    expect(screen.getByRole('combobox', { name: '천천히 모드' })).toHaveValue('30');
  });

  it("shows the '질문' tab sorted by votes, upvotes once, and asks anonymously", async () => {
    questions = [
      question({ id: 1, content: '첫 질문', votes: 0 }),
      question({ id: 2, content: '인기 질문', votes: 3 }),
    ];
    const { stomp } = renderPanel();
    await connect(stomp);
    const tab = await screen.findByRole('tab', { name: '질문 2' });
    await userEvent.click(tab);
    const items = () => within(screen.getByRole('list', { name: '질문 목록' })).getAllByRole('listitem');
    expect(items().map((item) => within(item).getByText(/질문$/).textContent)).toEqual([
      '인기 질문',
      '첫 질문',
    ]);

    // A live change re-sorts: the first question now has more votes.
    await act(async () =>
      stomp.last().subscriptions.get('/topic/questions/7')?.(
        JSON.stringify({ type: 'question', question: question({ id: 1, content: '첫 질문', votes: 5 }) }),
      ),
    );
    expect(items().map((item) => within(item).getByText(/질문$/).textContent)).toEqual([
      '첫 질문',
      '인기 질문',
    ]);

    const vote = within(items()[1] as HTMLElement).getByRole('button', { name: '추천 3', pressed: false });
    await userEvent.click(vote);
    expect(stomp.last().published.at(-1)).toEqual({
      destination: '/app/questions/vote',
      body: { roomId: CLASS_ID, questionId: 2 },
    });
    expect(
      within(items()[1] as HTMLElement).getByRole('button', { name: '추천 3', pressed: true }),
    ).toBeDisabled();

    await userEvent.type(screen.getByRole('textbox', { name: '질문 내용' }), '익명으로 물어봐요');
    await userEvent.click(screen.getByRole('checkbox', { name: '다른 수강생에게 이름 숨기기' }));
    await userEvent.click(screen.getByRole('button', { name: '질문하기' }));
    expect(stomp.last().published.at(-1)).toEqual({
      destination: '/app/questions',
      body: { roomId: CLASS_ID, content: '익명으로 물어봐요', anonymous: true },
    });
    // Students get no teacher tools.
    expect(screen.queryByRole('button', { name: '고정' })).not.toBeInTheDocument();
  });

  it('gives the teacher delete, mute, slow mode, the question marks and the hands queue', async () => {
    history = [chatMessage({ id: 1, writer: '학생', writer_id: 'student-1', content: '안녕하세요' })];
    hands = [{ userId: 'student-1', nickname: '학생', raisedDate: new Date(0).toISOString() }];
    questions = [question({ id: 4, content: '고정할 질문' })];
    const { stomp } = renderPanel('teacher');
    await connect(stomp);
    const published = () => stomp.last().published.at(-1);

    await userEvent.click(screen.getByRole('button', { name: '5분 채팅 금지' }));
    expect(published()).toEqual({
      destination: '/app/chat/mute',
      body: { roomId: CLASS_ID, userId: 'student-1', minutes: 5 },
    });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: '천천히 모드' }), '30');
    expect(published()).toEqual({ destination: '/app/chat/slow', body: { roomId: CLASS_ID, seconds: 30 } });
    await userEvent.click(screen.getByRole('button', { name: '메시지 삭제' }));
    expect(published()).toEqual({
      destination: '/app/chat/delete',
      body: { roomId: CLASS_ID, messageId: 1 },
    });
    // The deletion arrives: the message is gone.
    await act(async () =>
      stomp.last().subscriptions.get('/topic/moderation/7')?.(
        JSON.stringify({ type: 'messageDeleted', roomId: CLASS_ID, messageId: 1 }),
      ),
    );
    expect(screen.queryByText('안녕하세요')).not.toBeInTheDocument();

    const queue = await screen.findByRole('list', { name: '손든 순서' });
    expect(within(queue).getByText('✋ 학생')).toBeInTheDocument();
    await userEvent.click(within(queue).getByRole('button', { name: '내리기' }));
    expect(published()).toEqual({
      destination: '/app/hands/lower',
      body: { roomId: CLASS_ID, userId: 'student-1' },
    });

    await userEvent.click(screen.getByRole('tab', { name: '질문 1' }));
    await userEvent.click(await screen.findByRole('button', { name: '고정' }));
    expect(published()).toEqual({
      destination: '/app/questions/pin',
      body: { roomId: CLASS_ID, questionId: 4 },
    });
  });

  it('lets a student raise and lower a hand and shows the count', async () => {
    const { stomp } = renderPanel();
    await connect(stomp);
    await userEvent.click(screen.getByRole('button', { name: '✋ 손들기' }));
    expect(stomp.last().published.at(-1)).toEqual({
      destination: '/app/hands',
      body: { roomId: CLASS_ID, raised: true },
    });
    await act(async () =>
      stomp.last().subscriptions.get('/topic/hands/7')?.(
        JSON.stringify({ roomId: CLASS_ID, count: 2, raised: true, queue: [] }),
      ),
    );
    expect(screen.getByText('손든 학생 2명')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '✋ 손 내리기' })).toHaveAttribute('aria-pressed', 'true');
  });
});

describe('ChatPanel: polls and reactions', () => {
  it('lets a student answer a poll once and shows the results once revealed', async () => {
    polls = [poll({ id: 9, question: '오늘 수업 어땠나요?', options: ['좋아요', '어려워요'] })];
    const { stomp } = renderPanel();
    await connect(stomp);
    await userEvent.click(await screen.findByRole('tab', { name: '투표 1' }));
    const card = screen.getByRole('listitem', { name: '오늘 수업 어땠나요?' });
    await userEvent.click(within(card).getByRole('radio', { name: '어려워요' }));
    await userEvent.click(within(card).getByRole('button', { name: '답하기' }));
    expect(stomp.last().published.at(-1)).toEqual({
      destination: '/app/polls/vote',
      body: { roomId: CLASS_ID, pollId: 9, options: [1] },
    });
    expect(within(card).queryByRole('button', { name: '답하기' })).not.toBeInTheDocument();
    expect(within(card).getByText('강사가 결과를 공개하면 볼 수 있어요.')).toBeInTheDocument();
    await act(async () =>
      stomp.last().subscriptions.get('/topic/polls/7')?.(
        JSON.stringify(
          poll({
            id: 9,
            question: '오늘 수업 어땠나요?',
            options: ['좋아요', '어려워요'],
            counts: [3, 5],
            voters: 8,
            revealed: true,
          }),
        ),
      ),
    );
    expect(within(card).getByTestId('poll-9-count-1')).toHaveTextContent('5표');
    expect(within(card).getByText('(내 답)')).toBeInTheDocument();
  });

  it('lets the teacher start a quiz, and close and reveal it', async () => {
    const { stomp } = renderPanel('teacher');
    await connect(stomp);
    await userEvent.click(await screen.findByRole('tab', { name: '투표' }));
    await userEvent.type(screen.getByRole('textbox', { name: '투표 질문' }), '2 + 2는?');
    await userEvent.type(
      screen.getByRole('textbox', { name: '보기 (한 줄에 하나, 2~6개)' }),
      '3{Enter}4{Enter}5',
    );
    await userEvent.selectOptions(screen.getByRole('combobox', { name: '정답 (퀴즈)' }), '2번');
    await userEvent.click(screen.getByRole('button', { name: '투표 시작' }));
    expect(stomp.last().published.at(-1)).toEqual({
      destination: '/app/polls',
      body: {
        roomId: CLASS_ID,
        question: '2 + 2는?',
        options: ['3', '4', '5'],
        multiple: false,
        correct: [1],
      },
    });
    await act(async () =>
      stomp.last().subscriptions.get('/topic/polls/7')?.(
        JSON.stringify(
          poll({
            id: 3,
            question: '2 + 2는?',
            options: ['3', '4', '5'],
            quiz: true,
            correct: [1],
            counts: [0, 2, 1],
          }),
        ),
      ),
    );
    const card = screen.getByRole('listitem', { name: '2 + 2는?' });
    expect(within(card).getByTestId('poll-3-count-1')).toHaveTextContent('2표');
    await userEvent.click(within(card).getByRole('button', { name: '마감' }));
    expect(stomp.last().published.at(-1)).toEqual({
      destination: '/app/polls/close',
      body: { roomId: CLASS_ID, pollId: 3 },
    });
    await userEvent.click(within(card).getByRole('button', { name: '결과 공개' }));
    expect(stomp.last().published.at(-1)).toEqual({
      destination: '/app/polls/reveal',
      body: { roomId: CLASS_ID, pollId: 3 },
    });
  });

  it('sends a reaction, shows the bursts and gives the teacher the counts', async () => {
    const { stomp } = renderPanel('teacher');
    await connect(stomp);
    await userEvent.click(screen.getByRole('button', { name: '👏 반응 보내기' }));
    expect(stomp.last().published.at(-1)).toEqual({
      destination: '/app/reactions',
      body: { roomId: CLASS_ID, emoji: '👏' },
    });
    const update = (counts: object) =>
      stomp.last().subscriptions.get('/topic/reactions/7')?.(JSON.stringify({ roomId: CLASS_ID, counts }));
    await act(async () => update({ '👏': 3, '❤️': 1 }));
    await act(async () => update({ '👏': 2 }));
    expect(screen.getByText(/^받은 반응:/)).toHaveTextContent('받은 반응: 👏 5 · ❤️ 1');
  });
});

function poll(fields: Partial<Poll> & { id: number; question: string; options: string[] }): Poll {
  return {
    roomId: CLASS_ID,
    sessionId: 1,
    multiple: false,
    quiz: false,
    correct: null,
    counts: null,
    voters: 0,
    closed: false,
    revealed: false,
    myVote: null,
    createdDate: new Date(0).toISOString(),
    ...fields,
  };
}

function question(fields: Partial<Question> & { id: number; content: string }): Question {
  return {
    roomId: CLASS_ID,
    sessionId: 1,
    anonymous: false,
    author: '수강생',
    authorId: 'student-1',
    mine: false,
    votes: 0,
    voted: false,
    answered: false,
    pinned: false,
    createdDate: new Date(0).toISOString(),
    ...fields,
  };
}
