import { useEffect, useId, useRef } from 'react';
import type {
  SessionChatMessage,
  SessionClassroom,
  SessionPoll,
  SessionQuestion,
} from '@sea/contract/sessions';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { reachedCount, seekSecondsFor } from '../chat-sync.ts';
import { formatClock } from '../../../lib/format-date-time.ts';
import { momentKey, replayMoments, type ReplayMoment } from '../replay-moments.ts';
import { REPLAY_TEXTS } from '../texts.ts';
import styles from './replay-chat.module.css';

const texts = REPLAY_TEXTS.page;

/**
 * The session's chat beside the video, in step with it, with the session's questions ('질문') and polls
 * ('퀴즈', '투표') among the messages at the moments they were asked or opened: each shows once the video
 * reaches its moment, and a click on one seeks the video there. The list follows the newest as they appear.
 */
export function ReplayChat({
  messages,
  classroom,
  timeMs,
  loadFailed,
  classroomFailed = false,
  onSeek,
}: {
  messages: readonly SessionChatMessage[] | undefined;
  /** The session's questions and polls; undefined while loading (or when they could not be loaded). */
  classroom?: SessionClassroom | undefined;
  timeMs: number;
  loadFailed: boolean;
  classroomFailed?: boolean;
  onSeek: (seconds: number) => void;
}) {
  const titleId = useId();
  const listRef = useRef<HTMLOListElement>(null);
  const all = replayMoments(messages ?? [], classroom);
  const shown = reachedCount(all, timeMs);

  useEffect(() => {
    const list = listRef.current;
    if (list !== null) list.scrollTop = list.scrollHeight;
  }, [shown]);

  return (
    <section className={styles.panel} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        {texts.chatTitle}
      </h2>
      {loadFailed && (
        <p role="alert" className={styles.note}>
          {texts.chatFailed}
        </p>
      )}
      {classroomFailed && (
        <p role="alert" className={styles.note}>
          {texts.classroomFailed}
        </p>
      )}
      {!loadFailed && messages !== undefined && shown === 0 && (
        <p className={styles.note}>{all.length === 0 ? texts.chatNone : texts.chatEmpty}</p>
      )}
      <ol ref={listRef} className={styles.list} aria-live="polite">
        {all.slice(0, shown).map((moment) => {
          const clock = formatClock(seekSecondsFor(moment));
          return (
            <li key={momentKey(moment)}>
              <button
                type="button"
                className={moment.kind === 'message' ? styles.message : styles.moment}
                data-kind={moment.kind}
                onClick={() => onSeek(seekSecondsFor(moment))}
              >
                <MomentBody moment={moment} clock={clock} />
                <span className="visually-hidden">{texts.seekTo(clock)}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function MomentBody({ moment, clock }: { moment: ReplayMoment; clock: string }) {
  if (moment.kind === 'question') return <QuestionBody question={moment.question} clock={clock} />;
  if (moment.kind === 'poll') return <PollBody poll={moment.poll} clock={clock} />;
  const { message } = moment;
  const writer = message.nickname?.trim() || texts.unknownUser;
  return (
    <>
      <Avatar name={writer} src={message.profile_image_path} size={28} set="chat" alt="" />
      <span className={styles.body}>
        <span className={styles.head}>
          <span className={styles.writer}>{writer}</span>
          {message.role === 'teacher' && <span className={styles.badge}>{texts.teacher}</span>}
          <span className={styles.clock}>{clock}</span>
        </span>
        <span className={styles.content}>{message.content}</span>
      </span>
    </>
  );
}

/** A question: who asked (as the live room showed it), what, its upvotes and whether it was answered. */
function QuestionBody({ question, clock }: { question: SessionQuestion; clock: string }) {
  const author = question.author?.trim() || (question.anonymous ? texts.anonymous : texts.unknownUser);
  return (
    <span className={styles.body}>
      <span className={styles.head}>
        <span className={styles.kind}>{texts.questionBadge}</span>
        <span className={styles.writer}>{author}</span>
        <span className={styles.clock}>{clock}</span>
      </span>
      <span className={styles.content}>{question.content}</span>
      <span className={styles.facts}>
        <span>{texts.votes(question.votes)}</span>
        {question.answered && <span className={styles.done}>{texts.answered}</span>}
      </span>
    </span>
  );
}

/** A poll or quiz: its question, its choices with their final counts and the answer when shown. */
function PollBody({ poll, clock }: { poll: SessionPoll; clock: string }) {
  return (
    <span className={styles.body}>
      <span className={styles.head}>
        <span className={styles.kind}>{texts.pollBadge(poll.quiz)}</span>
        <span className={styles.clock}>{clock}</span>
        <span className={styles.voters}>{texts.voters(poll.voters)}</span>
      </span>
      <span className={styles.content}>{poll.question}</span>
      <span className={styles.choices}>
        {poll.options.map((option, index) => {
          const count = poll.counts?.[index];
          return (
            <span key={`${index}-${option}`} className={styles.choice}>
              <span>
                {option}
                {poll.myVote?.includes(index) && <span className={styles.mine}> ({texts.pollMine})</span>}
                {poll.correct?.includes(index) && <span className={styles.done}>{texts.pollAnswer}</span>}
              </span>
              {count !== undefined && <span className={styles.count}>{texts.pollCount(count)}</span>}
            </span>
          );
        })}
      </span>
      {poll.counts === null && <span className={styles.mine}>{texts.pollHidden}</span>}
    </span>
  );
}
