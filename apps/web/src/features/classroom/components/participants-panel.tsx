import type { RaisedHand } from '@sea/contract/classroom';
import type { Participant } from '@sea/contract/live';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { formatCountdown } from '../../../lib/format-date-time.ts';
import { CLASSROOM_TEXTS as T } from '../texts.ts';
import classroom from './classroom.module.css';

/** A student in the room with their picture (null: the default one), as the teacher's list shows them. */
export type RoomParticipant = Participant & { avatar: string | null };

export type ParticipantsPanelProps = {
  /** The students in the room now, in the order they came. */
  participants: readonly RoomParticipant[];
  /** The raised hands (the teacher's queue). */
  hands: readonly RaisedHand[];
  /** Every mute still running, by user id, with its end (ISO). */
  mutes: Readonly<Record<string, string>>;
  /** The clock the mutes are counted down against (ms). */
  now: number;
};

/**
 * The teacher's list of the students in the room now: picture and nickname, '손 듦' for a raised hand and
 * '채팅 금지' with the time left for a mute.
 */
export function ParticipantsPanel({ participants, hands, mutes, now }: ParticipantsPanelProps) {
  const raised = new Set(hands.map((hand) => hand.userId));
  return (
    <section className={classroom.participants} aria-label={T.participantsLabel}>
      {participants.length === 0 ? (
        <p className={classroom.empty}>{T.participantsEmpty}</p>
      ) : (
        <ul className={classroom.participantList}>
          {participants.map(({ userId, nickname, avatar }) => {
            const name = nickname.trim() || T.someStudent;
            const until = mutes[userId];
            return (
              <li key={userId} className={classroom.participant}>
                <Avatar name={name} src={avatar} size={32} set="chat" alt="" />
                <span className={classroom.participantName}>{name}</span>
                {raised.has(userId) && <span className={classroom.participantHand}>{T.participantHand}</span>}
                {until !== undefined && (
                  <span className={classroom.participantMuted}>
                    {T.participantMuted(formatCountdown((Date.parse(until) - now) / 1000))}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
