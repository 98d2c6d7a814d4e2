import { CHAT_TEXTS } from '../texts.ts';
import frame from '../../../components/ui/side-panel.module.css';
import styles from './chat-panel.module.css';

/**
 * The chat's place while the class is not live: the panel's frame, marked off, with no connection and no
 * input (the room itself says why; this only says when the chat opens).
 */
export function ChatClosed() {
  return (
    <section className={frame.panel} aria-label={CHAT_TEXTS.title}>
      <header className={frame.header}>
        <h2 className={frame.title}>{CHAT_TEXTS.title}</h2>
        <span className={frame.status} data-state="closed">
          {CHAT_TEXTS.closedState}
        </span>
      </header>
      <div className={styles.body}>
        <p className={styles.empty}>{CHAT_TEXTS.closedBody}</p>
      </div>
    </section>
  );
}
