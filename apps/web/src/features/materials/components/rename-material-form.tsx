import { useState } from 'react';
import { MATERIAL_NAME_MAX } from '@sea/contract/materials';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { MATERIAL_TEXTS as T } from '../texts.ts';
import styles from './materials.module.css';

/** The material's name in a one-line form. */
export function RenameMaterialForm({
  initial,
  busy,
  onSave,
  onCancel,
}: {
  initial: string;
  busy: boolean;
  onSave: (name: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(initial);
  return (
    <form
      className={styles.rename}
      onSubmit={(event) => {
        event.preventDefault();
        if (value.trim() !== '') onSave(value.trim());
      }}
    >
      <FormField label={T.name} count={{ text: value, max: MATERIAL_NAME_MAX }}>
        {(control) => (
          <input
            {...control}
            type="text"
            value={value}
            maxLength={MATERIAL_NAME_MAX}
            // The form opens on the teacher's click: the field is what they came for.
            autoFocus
            onChange={(event) => setValue(event.target.value)}
          />
        )}
      </FormField>
      <div className={styles.actions}>
        <Button type="submit" size="sm" disabled={busy || value.trim() === ''}>
          {T.save}
        </Button>
        <Button variant="ghost" size="sm" onClick={onCancel}>
          {T.cancel}
        </Button>
      </div>
    </form>
  );
}
