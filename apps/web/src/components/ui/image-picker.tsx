import { useEffect, useId, useMemo, useRef } from 'react';
import type { ReactNode } from 'react';
import { IMAGE_MIME_TYPES, isAcceptableImage } from '@sea/contract/uploads';
import { Button } from './button.tsx';
import { ProgressBar } from './progress-bar.tsx';
import { UI_TEXTS } from './texts.ts';
import styles from './image-picker.module.css';

export type ImagePickerProps = {
  label: string;
  /** The chosen file, or null. */
  file: File | null;
  onChange: (file: File | null) => void;
  /** Called instead of onChange with a file that fails the type/size check; the selection is cleared. */
  onReject: (file: File) => void;
  /** The image shown while no file is chosen (the current banner or profile picture). */
  currentUrl?: string | null;
  shape?: 'banner' | 'avatar';
  /** Shows a delete button that clears the file (and calls this, e.g. to drop the saved picture too). */
  onDelete?: () => void;
  /** Upload progress 0..1 while the form is sending; null hides the bar. */
  progress?: number | null;
  /** Notes under the picker (recommended size, limits). */
  notes?: ReactNode;
  disabled?: boolean;
};

/** Chooses one JPEG/PNG of at most 5 MB, shows its preview and, while sending, an upload progress bar. */
export function ImagePicker({
  label,
  file,
  onChange,
  onReject,
  currentUrl = null,
  shape = 'banner',
  onDelete,
  progress = null,
  notes,
  disabled = false,
}: ImagePickerProps) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const previewUrl = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => {
    if (previewUrl === null) return undefined;
    return () => URL.revokeObjectURL(previewUrl);
  }, [previewUrl]);

  const shown = previewUrl ?? currentUrl;

  function clearInput() {
    if (inputRef.current) inputRef.current.value = '';
  }

  return (
    <div className={`${styles.picker} ${styles[shape]}`}>
      <label htmlFor={inputId} className={styles.label}>
        {label}
      </label>
      <div className={styles.frame}>
        {shown ? (
          <img className={styles.preview} src={shown} alt={UI_TEXTS.imagePickerPreview} />
        ) : (
          <span className={styles.placeholder} aria-hidden="true">
            +
          </span>
        )}
      </div>
      <input
        ref={inputRef}
        id={inputId}
        className="visually-hidden"
        type="file"
        accept={IMAGE_MIME_TYPES.join(',')}
        disabled={disabled}
        onChange={(event) => {
          const chosen = event.currentTarget.files?.[0] ?? null;
          if (chosen === null) return;
          if (!isAcceptableImage(chosen)) {
            clearInput();
            onChange(null);
            onReject(chosen);
            return;
          }
          onChange(chosen);
        }}
      />
      <div className={styles.actions}>
        <Button variant="secondary" size="sm" disabled={disabled} onClick={() => inputRef.current?.click()}>
          {shown ? UI_TEXTS.imagePickerChange : UI_TEXTS.imagePickerChoose}
        </Button>
        {onDelete && (
          <Button
            variant="ghost"
            size="sm"
            disabled={disabled}
            onClick={() => {
              clearInput();
              onChange(null);
              onDelete();
            }}
          >
            {UI_TEXTS.imagePickerDelete}
          </Button>
        )}
      </div>
      {notes && <div className={styles.notes}>{notes}</div>}
      {progress !== null && <ProgressBar value={progress} label={UI_TEXTS.uploadProgress} />}
    </div>
  );
}
