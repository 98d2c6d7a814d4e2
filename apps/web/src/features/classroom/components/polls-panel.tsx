import type { RoomRole } from '@sea/contract/chat';
import { CLASSROOM_TEXTS as T } from '../texts.ts';
import type { PollsView } from '../use-polls.ts';
import { PollCard } from './poll-card.tsx';
import { PollForm } from './poll-form.tsx';
import styles from './classroom.module.css';

export type PollsPanelProps = { view: PollsView; role: RoomRole; disabled: boolean };

/** The '투표' tab: the session's polls, newest first, and for the teacher the form to start one. */
export function PollsPanel({ view, role, disabled }: PollsPanelProps) {
  return (
    <div className={styles.questions}>
      <ol className={styles.questionList} aria-label={T.pollsLabel}>
        {view.polls.map((poll) => (
          <PollCard
            key={poll.id}
            poll={poll}
            role={role}
            onVote={(options) => view.vote(poll.id, options)}
            onClose={() => view.close(poll.id)}
            onReveal={() => view.reveal(poll.id)}
          />
        ))}
      </ol>
      {view.polls.length === 0 && <p className={styles.empty}>{T.pollsEmpty}</p>}
      {role === 'teacher' && <PollForm disabled={disabled} onCreate={view.create} />}
    </div>
  );
}
