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

/** One message: the writer's picture and name (or 'anonymous', and '강사' for the teacher), the text, the time. */
export function ChatMessageItem({ message, mine, actions }: ChatMessageItemProps) {
  const writer = message.writer?.trim() ? message.writer : CHAT_TEXTS.anonymous;
  return (
    <li className={mine ? `${styles.item} ${styles.mine}` : styles.item} data-mine={mine || undefined}>
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
