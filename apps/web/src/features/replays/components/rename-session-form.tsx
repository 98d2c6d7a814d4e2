import { useState } from 'react';
import { SESSION_TITLE_MAX } from '@sea/contract/sessions';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { REPLAY_TEXTS } from '../texts.ts';
import styles from './session-list.module.css';

/** The replay's title in a one-line form; blank means 'show the date'. */
export function RenameSessionForm({
  initial,
  busy,
  onSave,
  onCancel,
}: {
  initial: string;
  busy: boolean;
  onSave: (title: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <form
      className={styles.rename}
      onSubmit={(event) => {
        event.preventDefault();
        onSave(value);
      }}
    >
      <FormField
        label={REPLAY_TEXTS.renameLabel}
        hint={REPLAY_TEXTS.renameHint}
        count={{ text: value, max: SESSION_TITLE_MAX }}
      >
        {(control) => (
          <input
            {...control}
            type="text"
            value={value}
            maxLength={SESSION_TITLE_MAX}
            // The form opens on the teacher's click: the field is what they came for.
            autoFocus
            onChange={(event) => setValue(event.target.value)}
          />
        )}
      </FormField>
      <div className={styles.actions}>
        <Button type="submit" size="sm" disabled={busy}>
          {REPLAY_TEXTS.save}
        </Button>
        <Button variant="ghost" size="sm" onClick={onCancel}>
          {REPLAY_TEXTS.cancel}
        </Button>
      </div>
    </form>
  );
}
