import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { Button } from './button.tsx';
import type { ButtonVariant } from './button.tsx';
import { UI_TEXTS } from './texts.ts';
import styles from './confirm-dialog.module.css';

export type ConfirmDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  body: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  /** Omit for a dialog with one button only (the 'lecture opened' dialog has no cancel). */
  cancelLabel?: string | null;
  confirmVariant?: ButtonVariant;
  /** Disables the confirm button while its action runs. */
  busy?: boolean;
  /** A second way out beside the confirm button (the end dialog's '잠시 나가기'). */
  alternative?: { label: string; onClick: () => void };
};

/**
 * A modal confirmation (Radix Dialog: focus trap, Escape, labelled title and body). With no cancel button
 * it cannot be dismissed by Escape or a click outside either: the one button is the way out.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  body,
  confirmLabel,
  onConfirm,
  cancelLabel = UI_TEXTS.cancel,
  confirmVariant = 'primary',
  busy = false,
  alternative,
}: ConfirmDialogProps) {
  const dismissible = cancelLabel !== null;
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay} />
        <RadixDialog.Content
          className={styles.content}
          role="alertdialog"
          onEscapeKeyDown={(event) => {
            if (!dismissible) event.preventDefault();
          }}
          onPointerDownOutside={(event) => {
            if (!dismissible) event.preventDefault();
          }}
        >
          <RadixDialog.Title className={styles.title}>{title}</RadixDialog.Title>
          <RadixDialog.Description className={styles.body} asChild={typeof body !== 'string'}>
            {typeof body === 'string' ? body : <div>{body}</div>}
          </RadixDialog.Description>
          <div className={styles.actions}>
            {dismissible && (
              <RadixDialog.Close asChild>
                <Button variant="secondary">{cancelLabel}</Button>
              </RadixDialog.Close>
            )}
            {alternative && (
              <Button variant="secondary" onClick={alternative.onClick} disabled={busy}>
                {alternative.label}
              </Button>
            )}
            <Button variant={confirmVariant} onClick={onConfirm} disabled={busy}>
              {confirmLabel}
            </Button>
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
