import { useState } from 'react';
import type { RoomRole } from '@sea/contract/chat';
import type { Poll } from '@sea/contract/classroom';
import { CLASSROOM_TEXTS as T } from '../texts.ts';
import styles from './classroom.module.css';

export type PollCardProps = {
  poll: Poll;
  role: RoomRole;
  onVote: (options: number[]) => void;
  onClose: () => void;
  onReveal: () => void;
};

/** One poll: its options to answer (students, once, while open), its results when shown, the teacher's buttons. */
export function PollCard({ poll, role, onVote, onClose, onReveal }: PollCardProps) {
  const [chosen, setChosen] = useState<number[]>([]);
  const canVote = role === 'student' && !poll.closed && poll.myVote === null;
  const toggle = (index: number): void =>
    setChosen((current) =>
      poll.multiple
        ? current.includes(index)
          ? current.filter((each) => each !== index)
          : [...current, index]
        : [index],
    );
  return (
    <li className={styles.question} aria-label={poll.question}>
      <p className={styles.questionMeta}>
        {poll.quiz && <span className={styles.tag}>{T.pollQuiz}</span>}
        {poll.closed && <span className={styles.tagDone}>{T.pollClosed}</span>}
        <span>{T.pollVoters(poll.voters)}</span>
      </p>
      <p className={styles.questionText}>{poll.question}</p>
      <ul className={styles.pollOptions}>
        {poll.options.map((option, index) => {
          const count = poll.counts?.[index];
          const correct = poll.correct?.includes(index) ?? false;
          const mine = poll.myVote?.includes(index) ?? false;
          return (
            <li key={option + String(index)} className={styles.pollOption}>
              {canVote ? (
                <label>
                  <input
                    type={poll.multiple ? 'checkbox' : 'radio'}
                    name={`poll-${poll.id}`}
                    checked={chosen.includes(index)}
                    onChange={() => toggle(index)}
                  />
                  {option}
                </label>
              ) : (
                <span>
                  {option}
                  {mine && <span className={styles.hint}> ({T.pollMine})</span>}
                  {correct && <span className={styles.tag}>{T.pollAnswer}</span>}
                </span>
              )}
              {count !== undefined && (
                <span className={styles.pollCount} data-testid={`poll-${poll.id}-count-${index}`}>
                  {T.pollCount(count)}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {poll.counts === null && !canVote && <p className={styles.hint}>{T.pollHidden}</p>}
      <div className={styles.questionActions}>
        {canVote && (
          <button
            type="button"
            className={styles.primary}
            disabled={chosen.length === 0}
            onClick={() => onVote([...chosen].sort((a, b) => a - b))}
          >
            {T.pollVote}
          </button>
        )}
        {role === 'teacher' && !poll.closed && (
          <button type="button" className={styles.small} onClick={onClose}>
            {T.pollClose}
          </button>
        )}
        {role === 'teacher' && !poll.revealed && (
          <button type="button" className={styles.small} onClick={onReveal}>
            {poll.closed ? T.pollReveal : T.pollCloseAndReveal}
          </button>
        )}
      </div>
    </li>
  );
}
