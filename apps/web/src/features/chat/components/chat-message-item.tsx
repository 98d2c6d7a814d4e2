import { useRef, useState, type PointerEvent } from 'react';
import type { ChatMessage } from '@sea/contract/chat';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { formatTimeOfDay } from '../../../lib/format-date-time.ts';
import { CHAT_TEXTS } from '../texts.ts';
import styles from './chat-panel.module.css';

/** The teacher's actions on a message: delete it, and mute its writer (a student), which asks for how long. */
export type MessageActions = { onDelete: () => void; onMute?: (() => void) | undefined };

export type ChatMessageItemProps = {
  message: ChatMessage;
  mine: boolean;
  actions?: MessageActions | undefined;
};

/** How long a finger rests on a message before its actions show (a touch screen has no hover). */
export const LONG_PRESS_MS = 500;

/**
 * One message: the writer's picture and name (or 'anonymous', and '강사' for the teacher), the text, the time;
 * its actions on hover or focus, or after a long press on a touch screen.
 */
export function ChatMessageItem({ message, mine, actions }: ChatMessageItemProps) {
  const writer = message.writer?.trim() ? message.writer : CHAT_TEXTS.anonymous;
  const [actionsOpen, setActionsOpen] = useState(false);
  const press = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const release = () => clearTimeout(press.current);
  const longPress = actions
    ? {
        onPointerDown: (event: PointerEvent) => {
          // A mouse has hover; a finger or a pen gets the long press.
          if (event.pointerType === 'mouse') return;
          release();
          press.current = setTimeout(() => setActionsOpen((open) => !open), LONG_PRESS_MS);
        },
        onPointerUp: release,
        onPointerLeave: release,
        onPointerCancel: release,
      }
    : {};
  return (
    <li
      className={mine ? `${styles.item} ${styles.mine}` : styles.item}
      data-mine={mine || undefined}
      data-actions-open={actionsOpen || undefined}
      {...longPress}
    >
      {!mine && <Avatar name={writer} src={message.profile_image_path} size={32} set="chat" alt="" />}
      <div className={styles.bubbleColumn}>
        {mine ? (
          <span className="visually-hidden">{CHAT_TEXTS.mine}</span>
        ) : (
          <span className={styles.writer}>
            {writer}
            {message.role === 'teacher' && (
              <span className={styles.teacherBadge}>{CHAT_TEXTS.teacherBadge}</span>
            )}
          </span>
        )}
        <div className={styles.bubbleRow}>
          <p className={styles.bubble}>{message.content}</p>
          <time className={styles.time} dateTime={message.createdDate}>
            {formatTimeOfDay(message.createdDate)}
          </time>
        </div>
        {actions && (
          <div className={styles.messageActions}>
            <button type="button" onClick={actions.onDelete}>
              {CHAT_TEXTS.deleteMessage}
            </button>
            {actions.onMute && (
              <button type="button" onClick={actions.onMute}>
                {CHAT_TEXTS.mute}
              </button>
            )}
          </div>
        )}
      </div>
    </li>
  );
}
