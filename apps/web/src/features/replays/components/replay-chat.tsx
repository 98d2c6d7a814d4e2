import { useEffect, useId, useRef } from 'react';
import type { SessionChatMessage } from '@sea/contract/sessions';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { reachedCount, seekSecondsFor } from '../chat-sync.ts';
import { formatClock } from '../../../lib/format-date-time.ts';
import { REPLAY_TEXTS } from '../texts.ts';
import styles from './replay-chat.module.css';

const texts = REPLAY_TEXTS.page;

/**
 * The session's chat beside the video, in step with it: a message shows once the video reaches its moment,
 * and a click on one seeks the video there. The list follows the newest message as they appear.
 */
export function ReplayChat({
  messages,
  timeMs,
  loadFailed,
  onSeek,
}: {
  messages: readonly SessionChatMessage[] | undefined;
  timeMs: number;
  loadFailed: boolean;
  onSeek: (seconds: number) => void;
}) {
  const titleId = useId();
  const listRef = useRef<HTMLOListElement>(null);
  const all = messages ?? [];
  const shown = reachedCount(all, timeMs);

  useEffect(() => {
    const list = listRef.current;
    if (list !== null) list.scrollTop = list.scrollHeight;
  }, [shown]);

  return (
    <section className={styles.panel} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.title}>
        {texts.chatTitle}
      </h2>
      {loadFailed && (
        <p role="alert" className={styles.note}>
          {texts.chatFailed}
        </p>
      )}
      {!loadFailed && messages !== undefined && shown === 0 && (
        <p className={styles.note}>{all.length === 0 ? texts.chatNone : texts.chatEmpty}</p>
      )}
      <ol ref={listRef} className={styles.list} aria-live="polite">
        {all.slice(0, shown).map((message) => {
          const writer = message.nickname?.trim() || texts.unknownUser;
          const clock = formatClock(seekSecondsFor(message));
          return (
            <li key={message.id}>
              <button
                type="button"
                className={styles.message}
                onClick={() => onSeek(seekSecondsFor(message))}
              >
                <Avatar name={writer} src={message.profile_image_path} size={28} set="chat" alt="" />
                <span className={styles.body}>
                  <span className={styles.head}>
                    <span className={styles.writer}>{writer}</span>
                    {message.role === 'teacher' && <span className={styles.badge}>{texts.teacher}</span>}
                    <span className={styles.clock}>{clock}</span>
                  </span>
                  <span className={styles.content}>{message.content}</span>
                </span>
                <span className="visually-hidden">{texts.seekTo(clock)}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
