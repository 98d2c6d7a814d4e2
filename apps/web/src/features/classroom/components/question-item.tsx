import type { RoomRole } from '@sea/contract/chat';
import type { Question } from '@sea/contract/classroom';
import { CLASSROOM_TEXTS as T } from '../texts.ts';
import styles from './classroom.module.css';

export type QuestionItemProps = {
  question: Question;
  role: RoomRole;
  onVote: () => void;
  onAnswer: () => void;
  onPin: () => void;
  onDelete: () => void;
};

/** One question: its text and author (or '익명'), its votes, its marks, and the actions the reader may take. */
export function QuestionItem({ question, role, onVote, onAnswer, onPin, onDelete }: QuestionItemProps) {
  const author = question.author ?? T.anonymousAuthor;
  return (
    <li className={styles.question} data-pinned={question.pinned || undefined}>
      <p className={styles.questionMeta}>
        {question.pinned && <span className={styles.tag}>{T.pinned}</span>}
        {question.answered && <span className={styles.tagDone}>{T.answered}</span>}
        <span>{question.mine ? T.mine : author}</span>
        {question.anonymous && question.author !== null && (
          <span className={styles.hint}>{T.anonymousToOthers}</span>
        )}
      </p>
      <p className={styles.questionText}>{question.content}</p>
      <div className={styles.questionActions}>
        <button
          type="button"
          className={styles.vote}
          aria-pressed={question.voted}
          title={question.voted ? T.voted : T.vote}
          disabled={question.voted}
          onClick={onVote}
        >
          <span aria-hidden="true">▲ </span>
          {T.votes(question.votes)}
        </button>
        {role === 'teacher' && (
          <>
            <button type="button" className={styles.small} onClick={onAnswer}>
              {question.answered ? T.unmarkAnswered : T.markAnswered}
            </button>
            <button type="button" className={styles.small} onClick={onPin}>
              {question.pinned ? T.unpin : T.pin}
            </button>
            <button type="button" className={styles.smallDanger} onClick={onDelete}>
              {T.deleteQuestion}
            </button>
          </>
        )}
      </div>
    </li>
  );
}
