import { useRef, useState } from 'react';
import type { RoomRole } from '@sea/contract/chat';
import {
  CHAT_DELETE_DESTINATION,
  CHAT_MUTE_DESTINATION,
  CHAT_SLOW_DESTINATION,
} from '@sea/contract/classroom';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { CHAT_TEXTS, CLASSROOM_TEXTS } from '../texts.ts';
import { useRoomConnection, type CreateRoomConnection } from '../../../lib/realtime/use-room-connection.ts';
import { formatChatTime } from '../format-chat-time.ts';
import { useHands } from '../use-hands.ts';
import { useModerationState } from '../use-moderation-state.ts';
import { usePolls } from '../use-polls.ts';
import { useQuestions } from '../use-questions.ts';
import { useReactions } from '../use-reactions.ts';
import { useStickToBottom } from '../use-stick-to-bottom.ts';
import { ChatComposer } from './chat-composer.tsx';
import { ChatMessageItem } from './chat-message-item.tsx';
import { HandsBar, type HandsBarProps } from './hands-bar.tsx';
import { PollsPanel } from './polls-panel.tsx';
import { QuestionsPanel } from './questions-panel.tsx';
import { ReactionBar } from './reaction-bar.tsx';
import { SlowModeSelect } from './slow-mode-select.tsx';
import styles from './chat-panel.module.css';
import classroom from './classroom.module.css';

export type ChatPanelProps = {
  classId: number;
  /** The reader's role in the room: the teacher gets the moderation tools and the hands queue. */
  role?: RoomRole;
  /** Another connection factory (tests); the real one connects to the server's `/ws`. */
  createConnection?: CreateRoomConnection;
  /** The teacher's extra control beside each raised hand (the live room's '발언 요청'). */
  handAction?: HandsBarProps['handAction'];
};

/** How long the teacher's mute button mutes a student. */
const MUTE_MINUTES = 5;

type Tab = 'chat' | 'questions' | 'polls';

/**
 * The side panel of the live rooms: the chat with the '질문' and '투표' tabs beside it, raised hands above
 * them and reactions below; for the teacher, the moderation tools (delete, mute, slow mode).
 */
export function ChatPanel({ classId, role = 'student', createConnection, handAction }: ChatPanelProps) {
  const { state, messages, refusal, send, connection } = useRoomConnection(classId, createConnection);
  const questions = useQuestions(connection, classId);
  const hands = useHands(connection, classId);
  const polls = usePolls(connection, classId);
  const reactions = useReactions(connection, classId);
  const me = useCurrentUser().data?.id ?? null;
  const { slowSeconds, mutedUntil } = useModerationState(connection, me);
  const [tab, setTab] = useState<Tab>('chat');
  const listRef = useRef<HTMLOListElement>(null);
  const { onScroll, scrollToBottom, unseen } = useStickToBottom(listRef, messages.at(-1)?.id);
  const teacher = role === 'teacher';
  const offline = state !== 'connected';

  const onSend = (content: string): boolean => {
    const sent = send(content);
    // My own message always brings me to the end, even if I had scrolled up.
    if (sent) scrollToBottom();
    return sent;
  };

  return (
    <section className={styles.panel} aria-label={CHAT_TEXTS.title}>
      <header className={styles.header}>
        <h2 className="visually-hidden">{CHAT_TEXTS.title}</h2>
        <div className={classroom.tabs} role="tablist" aria-label={CLASSROOM_TEXTS.tabsLabel}>
          <button
            type="button"
            role="tab"
            className={classroom.tab}
            aria-selected={tab === 'chat'}
            onClick={() => setTab('chat')}
          >
            {CHAT_TEXTS.title}
          </button>
          <button
            type="button"
            role="tab"
            className={classroom.tab}
            aria-selected={tab === 'questions'}
            onClick={() => setTab('questions')}
          >
            {CLASSROOM_TEXTS.questionsTab(questions.questions.length)}
          </button>
          <button
            type="button"
            role="tab"
            className={classroom.tab}
            aria-selected={tab === 'polls'}
            onClick={() => setTab('polls')}
          >
            {CLASSROOM_TEXTS.pollsTab(polls.polls.length)}
          </button>
        </div>
        <span className={styles.status} data-state={state} role="status">
          {CHAT_TEXTS.states[state]}
        </span>
      </header>
      <HandsBar controls={hands} role={role} disabled={offline} handAction={handAction} />
      {tab === 'questions' && <QuestionsPanel view={questions} role={role} disabled={offline} />}
      {tab === 'polls' && <PollsPanel view={polls} role={role} disabled={offline} />}
      {tab === 'chat' && (
        <>
          {teacher && (
            <div className={classroom.tools}>
              <SlowModeSelect
                seconds={slowSeconds}
                disabled={offline}
                onChange={(seconds) => connection?.publish(CHAT_SLOW_DESTINATION, { seconds })}
              />
            </div>
          )}
          {!teacher && slowSeconds > 0 && (
            <p className={classroom.notice}>{CLASSROOM_TEXTS.slowModeOn(slowSeconds)}</p>
          )}
          {!teacher && mutedUntil !== null && (
            <p className={classroom.notice}>{CLASSROOM_TEXTS.mutedUntil(formatChatTime(mutedUntil))}</p>
          )}
          <div className={styles.body}>
            <ol
              ref={listRef}
              className={styles.list}
              aria-label={CHAT_TEXTS.listLabel}
              aria-live="polite"
              aria-relevant="additions"
              onScroll={onScroll}
            >
              {messages.map((message) => {
                const mine = me !== null && message.writer_id === me;
                const writer = message.writer_id;
                return (
                  <ChatMessageItem
                    key={message.id}
                    message={message}
                    mine={mine}
                    actions={
                      teacher
                        ? {
                            onDelete: () =>
                              connection?.publish(CHAT_DELETE_DESTINATION, { messageId: message.id }),
                            onMute:
                              message.role === 'student' && writer !== null
                                ? () =>
                                    connection?.publish(CHAT_MUTE_DESTINATION, {
                                      userId: writer,
                                      minutes: MUTE_MINUTES,
                                    })
                                : undefined,
                            muteMinutes: MUTE_MINUTES,
                          }
                        : undefined
                    }
                  />
                );
              })}
            </ol>
            {messages.length === 0 && <p className={styles.empty}>{CHAT_TEXTS.empty}</p>}
            {unseen && (
              <button type="button" className={styles.jump} onClick={scrollToBottom}>
                {CHAT_TEXTS.newMessages}
              </button>
            )}
          </div>
        </>
      )}
      {refusal && (
        <p className={styles.refusal} role="alert">
          {refusal.message}
        </p>
      )}
      <ReactionBar view={reactions} role={role} disabled={offline} />
      {tab === 'chat' && <ChatComposer disabled={offline} onSend={onSend} />}
    </section>
  );
}
