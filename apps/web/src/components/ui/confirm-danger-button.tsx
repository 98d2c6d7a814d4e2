import { useState, type ReactNode } from 'react';
import { Button, type ButtonProps, type ButtonVariant } from './button.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';

export type ConfirmDangerButtonProps = {
  /** The button's text. */
  children: ReactNode;
  /** The button's look; the dialog's confirm button is always 'danger'. */
  variant?: ButtonVariant;
  size?: ButtonProps['size'];
  className?: string;
  /** The question the dialog asks: its title, body, confirm label, and way back (UI_TEXTS.cancel unless given). */
  ask: {
    title: string;
    body: ReactNode;
    confirmLabel: string;
    cancelLabel?: string;
    /** A second way out beside the confirm button; `close` closes the dialog. */
    alternative?: { label: string; onClick: (close: () => void) => void };
  };
  /** Disables the confirm button while the action runs. */
  busy?: boolean;
  /** Runs the dangerous action; `close` closes the confirmation (call it once the action settled). */
  onConfirm: (close: () => void) => void;
};

/** A button for a dangerous action (delete, withdraw, leave...) that asks first in a {@link ConfirmDialog}. */
export function ConfirmDangerButton({
  children,
  variant = 'danger',
  size,
  className,
  ask: { cancelLabel, alternative, ...dialog },
  busy,
  onConfirm,
}: ConfirmDangerButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant={variant} size={size} className={className} onClick={() => setOpen(true)}>
        {children}
      </Button>
      <ConfirmDialog
        {...dialog}
        {...(cancelLabel === undefined ? {} : { cancelLabel })}
        {...(busy === undefined ? {} : { busy })}
        {...(alternative === undefined
          ? {}
          : {
              alternative: {
                label: alternative.label,
                onClick: () => alternative.onClick(() => setOpen(false)),
              },
            })}
        open={open}
        onOpenChange={setOpen}
        confirmVariant="danger"
        onConfirm={() => onConfirm(() => setOpen(false))}
      />
    </>
  );
}
