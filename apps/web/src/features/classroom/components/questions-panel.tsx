import { useState, type FormEvent } from 'react';
import type { RoomRole } from '@sea/contract/chat';
import { MAX_QUESTION_LENGTH } from '@sea/contract/classroom';
import { clipText, textLength } from '@sea/contract/text-length';
import { CLASSROOM_TEXTS as T } from '../texts.ts';
import type { QuestionsView } from '../use-questions.ts';
import { QuestionItem } from './question-item.tsx';
import styles from './classroom.module.css';

export type QuestionsPanelProps = { view: QuestionsView; role: RoomRole; disabled: boolean };

/** The '질문' tab: the questions sorted by votes (pinned first), and a box to ask one. */
export function QuestionsPanel({ view, role, disabled }: QuestionsPanelProps) {
  const [text, setText] = useState('');
  const [anonymous, setAnonymous] = useState(false);
  const blank = text.trim() === '';

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    if (disabled || blank) return;
    if (view.ask(text, anonymous)) setText('');
  };

  return (
    <div className={styles.questions}>
      <ol className={styles.questionList} aria-label={T.questionsLabel}>
        {view.questions.map((question) => (
          <QuestionItem
            key={question.id}
            question={question}
            role={role}
            onVote={() => view.vote(question.id)}
            onAnswer={() => view.answer(question.id)}
            onPin={() => view.pin(question.id)}
            onDelete={() => view.remove(question.id)}
          />
        ))}
      </ol>
      {view.questions.length === 0 && <p className={styles.empty}>{T.questionsEmpty}</p>}
      <form className={styles.askForm} onSubmit={onSubmit}>
        <textarea
          className={styles.askInput}
          aria-label={T.questionInput}
          placeholder={T.questionPlaceholder}
          rows={2}
          value={text}
          onChange={(event) => setText(clipText(event.target.value, MAX_QUESTION_LENGTH))}
        />
        <div className={styles.askRow}>
          {role === 'student' && (
            <label className={styles.check}>
              <input
                type="checkbox"
                checked={anonymous}
                onChange={(event) => setAnonymous(event.target.checked)}
              />
              {T.anonymous}
            </label>
          )}
          <span className={styles.hint} aria-hidden="true">
            {textLength(text)}/{MAX_QUESTION_LENGTH}
          </span>
          <button type="submit" className={styles.primary} disabled={disabled || blank}>
            {T.ask}
          </button>
        </div>
      </form>
    </div>
  );
}
