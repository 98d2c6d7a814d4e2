import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { MAX_CHAT_LENGTH } from '@sea/contract/chat';
import { clipText, textLength } from '@sea/contract/text-length';
import { useTouchScreen } from '../../../lib/use-media-query.ts';
import { CHAT_TEXTS } from '../texts.ts';
import styles from './chat-panel.module.css';

export type ChatComposerProps = {
  disabled: boolean;
  /** Why the reader may not write now (said in the box, which keeps its text), or null. */
  blocked?: string | null;
  /** Sends the text; false when it could not be sent (the text then stays in the box). */
  onSend: (content: string) => boolean;
};

/**
 * The message box: Enter sends, Shift+Enter adds a line; nothing is sent while disconnected. A counter shows the
 * length against the limit (as the server counts it) before sending, and the box says so once it is reached.
 */
export function ChatComposer({ disabled: offline, blocked = null, onSend }: ChatComposerProps) {
  const disabled = offline || blocked !== null;
  const [text, setText] = useState('');
  const blank = text.trim() === '';
  const length = textLength(text);
  const full = length >= MAX_CHAT_LENGTH;
  // A phone's keyboard has no Shift+Enter to speak of: its placeholder does not mention one.
  const touch = useTouchScreen();
  const placeholder = touch ? CHAT_TEXTS.placeholderTouch : CHAT_TEXTS.placeholder;

  const submit = (): void => {
    if (disabled || blank) return;
    if (onSend(text)) setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    // While a Korean syllable is being composed, Enter confirms the syllable; it must not send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    submit();
  };

  return (
    <form className={styles.composer} onSubmit={onSubmit}>
      <textarea
        className={styles.input}
        aria-label={CHAT_TEXTS.inputLabel}
        placeholder={blocked ?? (offline ? CHAT_TEXTS.placeholderOffline : placeholder)}
        value={text}
        // A muted reader's box waits with what was typed in it, the time left as its placeholder.
        disabled={blocked !== null}
        rows={2}
        // Clipped by characters as the server counts them (a native maxLength counts UTF-16 units).
        onChange={(event) => setText(clipText(event.target.value, MAX_CHAT_LENGTH))}
        onKeyDown={onKeyDown}
      />
      <div className={styles.composerSide}>
        <button className={styles.send} type="submit" disabled={disabled || blank}>
          {CHAT_TEXTS.send}
        </button>
        <span
          className={full ? styles.countFull : styles.count}
          title={CHAT_TEXTS.characterCount(length, MAX_CHAT_LENGTH)}
          aria-hidden="true"
        >
          {length}/{MAX_CHAT_LENGTH}
        </span>
      </div>
      <p className={full ? styles.limitNote : 'visually-hidden'} aria-live="polite">
        {full ? CHAT_TEXTS.limitReached(MAX_CHAT_LENGTH) : ''}
      </p>
    </form>
  );
}
