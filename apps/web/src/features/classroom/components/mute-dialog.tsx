import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { MUTE_CHOICES, type MuteTarget } from '../message-moderation.ts';
import { CLASSROOM_TEXTS as T } from '../texts.ts';
import classroom from './classroom.module.css';

export type MuteDialogProps = {
  /** The student to mute; null: the dialog is closed. */
  target: MuteTarget | null;
  onClose: () => void;
  onMute: (target: MuteTarget, minutes: number) => void;
};

/** The teacher confirms a mute and chooses its length (1, 5, 10 or 30 minutes; 5 to start with). */
export function MuteDialog({ target, onClose, onMute }: MuteDialogProps) {
  const [minutes, setMinutes] = useState<number>(MUTE_CHOICES[1]);
  const nickname = target?.nickname || T.someStudent;
  return (
    <ConfirmDialog
      open={target !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={T.muteTitle(nickname)}
      body={
        <>
          <p>{T.muteBody}</p>
          <fieldset className={classroom.muteChoices}>
            <legend className="visually-hidden">{T.muteLength}</legend>
            {MUTE_CHOICES.map((choice) => (
              <label key={choice} className={classroom.muteChoice}>
                <input
                  type="radio"
                  name="mute-minutes"
                  value={choice}
                  checked={minutes === choice}
                  onChange={() => setMinutes(choice)}
                />
                {T.muteMinutes(choice)}
              </label>
            ))}
          </fieldset>
        </>
      }
      confirmLabel={T.muteConfirm}
      confirmVariant="danger"
      onConfirm={() => {
        if (target !== null) onMute(target, minutes);
        onClose();
      }}
    />
  );
}
