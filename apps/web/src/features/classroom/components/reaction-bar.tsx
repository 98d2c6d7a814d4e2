import type { RoomRole } from '@sea/contract/chat';
import { REACTIONS } from '@sea/contract/classroom';
import { CLASSROOM_TEXTS as T } from '../texts.ts';
import type { ReactionsView } from '../use-reactions.ts';
import styles from './classroom.module.css';

export type ReactionBarProps = { view: ReactionsView; role: RoomRole; disabled: boolean };

/** The reactions: a light burst of what the room sends, the buttons to send one, and the teacher's counts once one has come. */
export function ReactionBar({ view, role, disabled }: ReactionBarProps) {
  const received = REACTIONS.filter((emoji) => view.totals[emoji]);
  return (
    <div className={styles.reactions}>
      <div className={styles.bursts} aria-hidden="true">
        {view.bursts.map((burst) => (
          <span key={burst.key} className={styles.burst}>
            {burst.emoji}
          </span>
        ))}
      </div>
      <div className={styles.reactionButtons} role="group" aria-label={T.reactionsLabel}>
        {REACTIONS.map((emoji) => (
          <button
            key={emoji}
            type="button"
            className={styles.reaction}
            aria-label={T.reactionSend(emoji)}
            disabled={disabled}
            onClick={() => view.send(emoji)}
          >
            {emoji}
          </button>
        ))}
      </div>
      {role === 'teacher' && received.length > 0 && (
        <p className={styles.hint}>
          {T.reactionTotals}: {received.map((emoji) => `${emoji} ${view.totals[emoji]}`).join(' · ')}
        </p>
      )}
    </div>
  );
}
