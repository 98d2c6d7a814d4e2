import { useState } from 'react';
import type { SessionItem } from '@sea/contract/sessions';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDangerButton } from '../../../components/ui/confirm-danger-button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useSessionMutations } from '../api/session-mutations.ts';
import { canRemake } from '../session-status.ts';
import { REPLAY_TEXTS } from '../texts.ts';
import { RenameSessionForm } from './rename-session-form.tsx';
import styles from './session-list.module.css';

const texts = REPLAY_TEXTS;

/** The server's Korean reason when it gave one, else the action's own text. */
function failure(error: unknown, fallback: string): string {
  return (isHttpError(error) && error.messageKor) || fallback;
}

/** The teacher's tools for one replay: rename, hide or show again, delete (after a confirmation). */
export function SessionTeacherActions({
  classId,
  session,
  title,
}: {
  classId: number;
  session: SessionItem;
  title: string;
}) {
  const notify = useNotify();
  const { patch, remove, remake } = useSessionMutations(classId);
  const [renaming, setRenaming] = useState(false);
  const hidden = session.recording.hidden;

  if (renaming) {
    return (
      <RenameSessionForm
        initial={session.recording.title ?? ''}
        busy={patch.isPending}
        onCancel={() => setRenaming(false)}
        onSave={(value) =>
          patch.mutate(
            { sessionId: session.id, title: value.trim() === '' ? null : value.trim() },
            {
              onSuccess: () => {
                notify(texts.renamed, { tone: 'success' });
                setRenaming(false);
              },
              onError: (error) => notify(failure(error, texts.renameFailed), { tone: 'error' }),
            },
          )
        }
      />
    );
  }

  return (
    <div className={styles.actions} role="group" aria-label={texts.actionsLabel(title)}>
      {canRemake(session.recording) && (
        <Button
          variant="secondary"
          size="sm"
          disabled={remake.isPending}
          onClick={() =>
            remake.mutate(session.id, {
              onSuccess: () => notify(texts.remade, { tone: 'success' }),
              onError: (error) => notify(failure(error, texts.remakeFailed), { tone: 'error' }),
            })
          }
        >
          {texts.remake}
        </Button>
      )}
      <Button variant="ghost" size="sm" onClick={() => setRenaming(true)}>
        {texts.rename}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        disabled={patch.isPending}
        onClick={() =>
          patch.mutate(
            { sessionId: session.id, hidden: !hidden },
            {
              onSuccess: () => notify(hidden ? texts.unhidden : texts.hidden, { tone: 'success' }),
              onError: (error) => notify(failure(error, texts.hideFailed), { tone: 'error' }),
            },
          )
        }
      >
        {hidden ? texts.unhide : texts.hide}
      </Button>
      <ConfirmDangerButton
        ask={{ title: texts.removeTitle, body: texts.removeBody(title), confirmLabel: texts.removeConfirm }}
        variant="ghost"
        size="sm"
        className={styles.remove}
        busy={remove.isPending}
        onConfirm={(close) =>
          remove.mutate(session.id, {
            onSuccess: () => notify(texts.removed, { tone: 'success' }),
            onError: (error) => notify(failure(error, texts.removeFailed), { tone: 'error' }),
            onSettled: close,
          })
        }
      >
        {texts.remove}
      </ConfirmDangerButton>
    </div>
  );
}
