import { useRef } from 'react';
import { useCurrentUser } from '../../../lib/current-user.ts';
import { CHAT_TEXTS } from '../texts.ts';
import { useChatConnection, type CreateChatConnection } from '../use-chat-connection.ts';
import { useStickToBottom } from '../use-stick-to-bottom.ts';
import { ChatComposer } from './chat-composer.tsx';
import { ChatMessageItem } from './chat-message-item.tsx';
import styles from './chat-panel.module.css';

export type ChatPanelProps = {
  classId: number;
  /** Another connection factory (tests); the real one connects to the server's `/ws`. */
  createConnection?: CreateChatConnection;
};

/** The live chat of a class, for the teacher's and the students' live rooms. */
export function ChatPanel({ classId, createConnection }: ChatPanelProps) {
  const { state, messages, refusal, send } = useChatConnection(classId, createConnection);
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
    <section className={styles.panel} aria-label={CHAT_TEXTS.title}>
      <header className={styles.header}>
        <h2 className={styles.title}>{CHAT_TEXTS.title}</h2>
        <span className={styles.status} data-state={state} role="status">
          {CHAT_TEXTS.states[state]}
        </span>
      </header>
      <div className={styles.body}>
        <ol
          ref={listRef}
          className={styles.list}
          aria-label={CHAT_TEXTS.listLabel}
          aria-live="polite"
          aria-relevant="additions"
          onScroll={onScroll}
        >
          {messages.map((message) => (
            <ChatMessageItem
              key={message.id}
              message={message}
              mine={me !== null && message.writer_id === me}
            />
          ))}
        </ol>
        {messages.length === 0 && <p className={styles.empty}>{CHAT_TEXTS.empty}</p>}
        {unseen && (
          <button type="button" className={styles.jump} onClick={scrollToBottom}>
            {CHAT_TEXTS.newMessages}
          </button>
        )}
      </div>
      {refusal && (
        <p className={styles.refusal} role="alert">
          {refusal.message}
        </p>
      )}
      <ChatComposer disabled={state !== 'connected'} onSend={onSend} />
    </section>
  );
}
