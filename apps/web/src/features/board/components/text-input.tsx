import { useState } from 'react';
import { MAX_INK_TEXT_LENGTH } from '@sea/contract/board';
import { Button } from '../../../components/ui/button.tsx';
import { BOARD_TEXTS as T } from '../texts.ts';
import styles from './board.module.css';

/** The text tool's box, where the page was touched: the words go on the page with '넣기'. */
export function TextInput({
  at,
  onSubmit,
  onCancel,
}: {
  at: [number, number];
  onSubmit: (text: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState('');
  return (
    <form
      className={styles.textForm}
      style={{ left: `${Math.min(at[0], 0.6) * 100}%`, top: `${Math.min(at[1], 0.85) * 100}%` }}
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim() !== '') onSubmit(text.trim());
      }}
    >
      <input
        aria-label={T.textPrompt}
        value={text}
        maxLength={MAX_INK_TEXT_LENGTH}
        autoFocus
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
        }}
      />
      <Button size="sm" type="submit">
        {T.textAdd}
      </Button>
      <Button size="sm" variant="ghost" onClick={onCancel}>
        {T.textCancel}
      </Button>
    </form>
  );
}
