import type { ReactNode } from 'react';
import type { RoomRole } from '@sea/contract/chat';
import type { RaisedHand } from '@sea/contract/classroom';
import { CLASSROOM_TEXTS as T } from '../texts.ts';
import type { HandsControls } from '../use-hands.ts';
import styles from './classroom.module.css';

export type HandsBarProps = {
  controls: HandsControls;
  role: RoomRole;
  disabled: boolean;
  /** The teacher's extra control beside each raised hand (composed in by the route: '발언 요청'). */
  handAction?: (hand: RaisedHand) => ReactNode;
};

/** Raised hands: a student's button and the count; for the teacher the queue in order, to lower one or all. */
export function HandsBar({ controls, role, disabled, handAction }: HandsBarProps) {
  const { hands } = controls;
  if (role === 'student') {
    return (
      <div className={styles.hands}>
        <button
          type="button"
          className={hands.raised ? styles.handRaised : styles.small}
          aria-pressed={hands.raised}
          disabled={disabled}
          onClick={() => controls.setRaised(!hands.raised)}
        >
          ✋ {hands.raised ? T.lowerHand : T.raiseHand}
        </button>
        <span className={styles.hint}>{T.handsCount(hands.count)}</span>
      </div>
    );
  }
  return (
    <div className={styles.hands}>
      <span>{T.handsCount(hands.count)}</span>
      {hands.count > 0 && (
        <button type="button" className={styles.small} disabled={disabled} onClick={() => controls.lower()}>
          {T.lowerAll}
        </button>
      )}
      {hands.queue.length > 0 && (
        <ol className={styles.handQueue} aria-label={T.handsQueue}>
          {hands.queue.map((hand) => (
            <li key={hand.userId}>
              <span>✋ {hand.nickname ?? T.anonymousAuthor}</span>
              {handAction?.(hand)}
              <button
                type="button"
                className={styles.small}
                disabled={disabled}
                onClick={() => controls.lower(hand.userId)}
              >
                {T.lowerOne}
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
