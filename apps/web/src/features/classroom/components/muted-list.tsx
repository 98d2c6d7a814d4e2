import { formatCountdown } from '../../../lib/format-date-time.ts';
import { CLASSROOM_TEXTS as T } from '../texts.ts';
import classroom from './classroom.module.css';

export type MutedListProps = {
  /** Every mute still running, by user id, with its end (ISO). */
  mutes: Readonly<Record<string, string>>;
  /** Nicknames by user id, from the room's messages (one who never wrote is '수강생'). */
  names: Readonly<Record<string, string>>;
  now: number;
  disabled: boolean;
  onLift: (userId: string) => void;
};

/** The teacher's list of muted students, each with the time left and '해제'. Nothing when nobody is muted. */
export function MutedList({ mutes, names, now, disabled, onLift }: MutedListProps) {
  const entries = Object.entries(mutes);
  if (entries.length === 0) return null;
  return (
    <section className={classroom.muted} aria-label={T.mutedTitle}>
      <h3 className={classroom.mutedTitle}>{T.mutedTitle}</h3>
      <ul className={classroom.mutedList}>
        {entries.map(([userId, until]) => {
          const nickname = names[userId] || T.someStudent;
          return (
            <li key={userId} className={classroom.mutedItem}>
              <span>{T.mutedLeft(nickname, formatCountdown((Date.parse(until) - now) / 1000))}</span>
              <button
                type="button"
                className={classroom.mutedLift}
                disabled={disabled}
                aria-label={T.unmuteLabel(nickname)}
                onClick={() => onLift(userId)}
              >
                {T.unmute}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
