import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { chatMessage } from '../testing/fake-stomp.ts';
import { CLASS_ID, connect, roomServerPerTest, renderPanel } from './test/room-panel.tsx';
import { poll, question } from '../testing/classroom-fixtures.ts';

const data = roomServerPerTest();

describe('LiveRoomPanel: questions and hands', () => {
  it("shows the '질문' tab sorted by votes, upvotes once, and asks anonymously", async () => {
    data.questions = [
      question({ id: 1, content: '첫 질문', votes: 0 }),
      question({ id: 2, content: '인기 질문', votes: 3 }),
    ];
    const { stomp } = renderPanel(data);
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

  it(
    'gives the teacher delete, mute, slow mode, the question marks and the hands queue',
    { timeout: 30_000 },
    async () => {
      data.history = [chatMessage({ id: 1, writer: '학생', writer_id: 'student-1', content: '안녕하세요' })];
      data.hands = [{ userId: 'student-1', nickname: '학생', raisedDate: new Date(0).toISOString() }];
      data.questions = [question({ id: 4, content: '고정할 질문' })];
      const { stomp } = renderPanel(data, 'teacher');
      await connect(stomp);
      const published = () => stomp.last().published.at(-1);

      await userEvent.click(screen.getByRole('button', { name: '채팅 금지' }));
      // Asked first, with 5 minutes to start with.
      const dialog = await screen.findByRole('alertdialog');
      await userEvent.click(within(dialog).getByRole('button', { name: '채팅 금지' }));
      expect(published()).toEqual({
        destination: '/app/chat/mute',
        body: { roomId: CLASS_ID, userId: 'student-1', minutes: 5 },
      });
      await userEvent.selectOptions(screen.getByRole('combobox', { name: '천천히 모드' }), '30');
      expect(published()).toEqual({ destination: '/app/chat/slow', body: { roomId: CLASS_ID, seconds: 30 } });
      await userEvent.click(screen.getByRole('button', { name: '메시지 삭제' }));
      // The delete waits 5 s for '되돌리기' before it is sent.
      expect(await screen.findByText('메시지를 5초 뒤에 지워요.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: '되돌리기' })).toBeInTheDocument();
      expect(published()?.destination).not.toBe('/app/chat/delete');
      await waitFor(
        () =>
          expect(published()).toEqual({
            destination: '/app/chat/delete',
            body: { roomId: CLASS_ID, messageId: 1 },
          }),
        { timeout: 8_000 },
      );
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
    },
  );

  it('lets a student raise and lower a hand and shows the count', async () => {
    const { stomp } = renderPanel(data);
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

describe('LiveRoomPanel: polls and reactions', () => {
  it('lets a student answer a poll once and shows the results once revealed', async () => {
    data.polls = [poll({ id: 9, question: '오늘 수업 어땠나요?', options: ['좋아요', '어려워요'] })];
    const { stomp } = renderPanel(data);
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
    const { stomp } = renderPanel(data, 'teacher');
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
    // The poll is still open here: revealing it closes it too, and the button says so.
    await userEvent.click(within(card).getByRole('button', { name: '마감하고 결과 공개' }));
    expect(stomp.last().published.at(-1)).toEqual({
      destination: '/app/polls/reveal',
      body: { roomId: CLASS_ID, pollId: 3 },
    });
  });

  it('sends a reaction, shows the bursts and gives the teacher the counts', async () => {
    const { stomp } = renderPanel(data, 'teacher');
    await connect(stomp);
    // No counts line before the first reaction arrives.
    expect(screen.queryByText(/받은 반응/)).not.toBeInTheDocument();
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
