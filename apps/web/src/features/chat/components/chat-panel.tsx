import { Fragment, useRef, type ReactNode } from 'react';
import type { ChatMessage } from '@sea/contract/chat';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { formatDay } from '../../../lib/format-date-time.ts';
import { CHAT_TEXTS } from '../texts.ts';
import { useStickToBottom } from '../use-stick-to-bottom.ts';
import { ChatComposer } from './chat-composer.tsx';
import { ChatMessageItem, type MessageActions } from './chat-message-item.tsx';
import styles from './chat-panel.module.css';

export type ChatPanelProps = {
  /** The room's messages, oldest first. */
  messages: readonly ChatMessage[];
  /** True while the room is not connected: nothing can be sent. */
  disabled: boolean;
  /** Why the reader may not write now (a mute, with the time left), or null: the box waits, its text kept. */
  blocked?: string | null;
  /** Sends a message; false when nothing was sent. */
  send: (content: string) => boolean;
  /** The teacher's actions on a message (the classroom's moderation); none for a student. */
  actionsFor?: ((message: ChatMessage) => MessageActions | undefined) | undefined;
  /** What the room shows between the messages and the composer. */
  footer?: ReactNode;
};

/**
 * The chat tab of a live room's side panel: the messages under a line with their date at each new day (so an
 * earlier lecture's messages stand apart), kept at the newest while the reader is there, and the composer.
 */
export function ChatPanel({ messages, disabled, blocked = null, send, actionsFor, footer }: ChatPanelProps) {
  const me = useCurrentUser().data?.id ?? null;
  const listRef = useRef<HTMLOListElement>(null);
  const { onScroll, scrollToBottom, unseen } = useStickToBottom(listRef, messages.at(-1)?.id);

  const onSend = (content: string): boolean => {
    const sent = send(content);
    // My own message always brings me to the end, even if I had scrolled up.
    if (sent) scrollToBottom();
    return sent;
  };

  return (
    <>
      <div className={styles.body}>
        <ol
          ref={listRef}
          className={styles.list}
          aria-label={CHAT_TEXTS.listLabel}
          aria-live="polite"
          aria-relevant="additions"
          onScroll={onScroll}
        >
          {messages.map((message, index) => {
            const day = formatDay(message.createdDate);
            const newDay = day !== '' && day !== formatDay(messages[index - 1]?.createdDate ?? '');
            return (
              <Fragment key={message.id}>
                {/* Earlier lectures' messages stand apart from today's under their own date. */}
                {newDay && (
                  <li className={styles.dateLine} data-day={day}>
                    {day}
                  </li>
                )}
                <ChatMessageItem
                  message={message}
                  mine={me !== null && message.writer_id === me}
                  actions={actionsFor?.(message)}
                />
              </Fragment>
            );
          })}
        </ol>
        {messages.length === 0 && <p className={styles.empty}>{CHAT_TEXTS.empty}</p>}
        {unseen && (
          <button type="button" className={styles.jump} onClick={scrollToBottom}>
            {CHAT_TEXTS.newMessages}
          </button>
        )}
      </div>
      {footer}
      <ChatComposer disabled={disabled} blocked={blocked} onSend={onSend} />
    </>
  );
}
