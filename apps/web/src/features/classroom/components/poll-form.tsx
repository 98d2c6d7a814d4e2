import { useState, type FormEvent } from 'react';
import { MAX_POLL_OPTIONS, MIN_POLL_OPTIONS } from '@sea/contract/classroom';
import { CLASSROOM_TEXTS as T } from '../texts.ts';
import type { NewPoll } from '../use-polls.ts';
import styles from './classroom.module.css';

export type PollFormProps = { disabled: boolean; onCreate: (poll: NewPoll) => boolean };

/** The teacher's form for a new poll: a question, 2–6 options (one a line), single or multiple, an answer. */
export function PollForm({ disabled, onCreate }: PollFormProps) {
  const [question, setQuestion] = useState('');
  const [lines, setLines] = useState('');
  const [multiple, setMultiple] = useState(false);
  const [correct, setCorrect] = useState(-1);
  const options = lines
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const ready =
    question.trim() !== '' && options.length >= MIN_POLL_OPTIONS && options.length <= MAX_POLL_OPTIONS;

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    if (!ready || disabled) return;
    const poll = {
      question,
      options,
      multiple,
      correct: correct >= 0 && correct < options.length ? [correct] : null,
    };
    if (onCreate(poll)) {
      setQuestion('');
      setLines('');
      setCorrect(-1);
    }
  };

  return (
    <form className={styles.askForm} onSubmit={onSubmit} aria-label={T.newPoll}>
      <input
        className={styles.askInput}
        aria-label={T.pollQuestion}
        placeholder={T.pollQuestion}
        value={question}
        onChange={(event) => setQuestion(event.target.value)}
      />
      <textarea
        className={styles.askInput}
        rows={3}
        aria-label={T.pollOptions}
        placeholder={T.pollOptions}
        value={lines}
        onChange={(event) => setLines(event.target.value)}
      />
      <div className={styles.askRow}>
        <label className={styles.check}>
          <input type="checkbox" checked={multiple} onChange={(event) => setMultiple(event.target.checked)} />
          {T.pollMultiple}
        </label>
        <label className={styles.slowMode}>
          {T.pollCorrect}
          <select value={correct} onChange={(event) => setCorrect(Number(event.target.value))}>
            <option value={-1}>{T.pollNoCorrect}</option>
            {options.map((option, index) => (
              <option key={option + String(index)} value={index}>
                {T.pollCorrectOption(index)}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className={styles.primary} disabled={disabled || !ready}>
          {T.startPoll}
        </button>
      </div>
    </form>
  );
}
