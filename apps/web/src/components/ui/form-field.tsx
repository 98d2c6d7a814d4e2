import { useId } from 'react';
import type { ReactNode } from 'react';
import { textLength } from '@sea/contract/text-length';
import { UI_TEXTS } from './texts.ts';
import styles from './form-field.module.css';

/** What a form control needs to be labelled and described by its field. */
export type FieldControlProps = {
  id: string;
  className: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  'aria-required': true | undefined;
};

export type FormFieldProps = {
  label: string;
  /** Marks the field '(필수)'. */
  required?: boolean;
  /** A note under the control, shown while there is no error. */
  hint?: string;
  /** The validation message; replaces the hint and marks the control invalid. */
  error?: string | undefined;
  /** Shows 'n/max' beside the label: the text's length counted as the server counts it (characters). */
  count?: { text: string | null | undefined; max: number };
  /** Renders the control (input, textarea, select) with the given props spread on it. */
  children: (control: FieldControlProps) => ReactNode;
};

/** A labelled form control with its hint or validation message, wired for screen readers. */
export function FormField({ label, required = false, hint, error, count, children }: FormFieldProps) {
  const id = useId();
  const noteId = `${id}-note`;
  const note = error ?? hint;
  const length = count ? textLength(count.text ?? '') : 0;
  return (
    <div className={styles.field}>
      <div className={styles.head}>
        <label htmlFor={id} className={styles.label}>
          {label}
          {required && <span className={styles.required}> {UI_TEXTS.required}</span>}
        </label>
        {count && (
          <span
            className={length > count.max ? styles.countOver : styles.count}
            title={UI_TEXTS.characterCount(length, count.max)}
          >
            {length}/{count.max}
          </span>
        )}
      </div>
      {children({
        id,
        className: styles.control ?? '',
        'aria-invalid': error ? true : undefined,
        'aria-describedby': note ? noteId : undefined,
        'aria-required': required ? true : undefined,
      })}
      {note && (
        <p id={noteId} className={error ? styles.error : styles.hint}>
          {note}
        </p>
      )}
    </div>
  );
}
