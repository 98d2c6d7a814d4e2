import { useState } from 'react';
import { Card } from '../../../components/ui/card.tsx';
import { sessionTitle } from '../../../lib/session-title.ts';
import { useClassSessions, useSessionPolls, useSessionQuestions } from '../api/session-questions.ts';
import { PAST_QUESTIONS_TEXTS as T } from '../texts.ts';
import styles from './classroom.module.css';

/**
 * The teacher's dashboard: the questions of a past (or the current) live session, with who asked each, and
 * its polls and quizzes with their results.
 */
export function PastQuestionsCard({ classId }: { classId: number }) {
  const sessions = useClassSessions(classId);
  const [chosen, setChosen] = useState<number | null>(null);
  const list = sessions.data ?? [];
  const sessionId = chosen ?? list[0]?.id ?? null;
  const questions = useSessionQuestions(classId, sessionId);
  const polls = useSessionPolls(classId, sessionId);

  return (
    <Card title={T.title}>
      {list.length === 0 ? (
        <p className={styles.hint}>{sessions.isPending ? T.loading : T.noSessions}</p>
      ) : (
        <>
          <label className={styles.slowMode}>
            {T.session}
            <select value={sessionId ?? ''} onChange={(event) => setChosen(Number(event.target.value))}>
              {list.map((session) => (
                <option key={session.id} value={session.id}>
                  {sessionTitle(session.recording.title, session.started_at)}
                </option>
              ))}
            </select>
          </label>
          <ol className={styles.questionList} aria-label={T.listLabel}>
            {(questions.data?.questions ?? []).map((question) => (
              <li key={question.id} className={styles.question}>
                <p className={styles.questionMeta}>
                  {question.pinned && <span className={styles.tag}>{T.pinned}</span>}
                  {question.answered && <span className={styles.tagDone}>{T.answered}</span>}
                  <span>{question.author ?? T.withdrawn}</span>
                  {question.anonymous && <span className={styles.hint}>{T.anonymous}</span>}
                  <span>{T.votes(question.votes)}</span>
                </p>
                <p className={styles.questionText}>{question.content}</p>
              </li>
            ))}
          </ol>
          {questions.data?.questions.length === 0 && <p className={styles.hint}>{T.none}</p>}
          {(polls.data?.polls.length ?? 0) > 0 && (
            <ol className={styles.questionList} aria-label={T.pollsLabel}>
              {polls.data?.polls.map((poll) => (
                <li key={poll.id} className={styles.question}>
                  <p className={styles.questionMeta}>
                    {poll.quiz && <span className={styles.tag}>{T.quiz}</span>}
                    <span>{T.voters(poll.voters)}</span>
                  </p>
                  <p className={styles.questionText}>{poll.question}</p>
                  <ul className={styles.pollOptions}>
                    {poll.options.map((option, index) => (
                      <li key={option + String(index)} className={styles.pollOption}>
                        <span>
                          {option}
                          {poll.correct?.includes(index) && <span className={styles.tag}>{T.correct}</span>}
                        </span>
                        <span className={styles.pollCount}>{T.count(poll.counts?.[index] ?? 0)}</span>
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </Card>
  );
}
