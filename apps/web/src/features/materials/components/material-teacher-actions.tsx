import type { Material } from '@sea/contract/materials';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDangerButton } from '../../../components/ui/confirm-danger-button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useMaterialMutations } from '../api/material-mutations.ts';
import { MATERIAL_TEXTS as T } from '../texts.ts';
import styles from './materials.module.css';

const failure = (error: unknown, fallback: string): string =>
  (isHttpError(error) && error.messageKor) || fallback;

/** The teacher's tools for one material: rename, the students' download, delete (asked first). */
export function MaterialTeacherActions({
  classId,
  material,
  onRename,
}: {
  classId: number;
  material: Material;
  onRename: () => void;
}) {
  const { patch, remove } = useMaterialMutations(classId);
  const notify = useNotify();
  return (
    <div className={styles.actions} role="group" aria-label={material.name}>
      <label className={styles.toggle}>
        <input
          type="checkbox"
          checked={material.downloadable}
          disabled={patch.isPending}
          onChange={(event) =>
            patch.mutate(
              { materialId: material.id, patch: { downloadable: event.target.checked } },
              { onError: (error) => notify(failure(error, T.toggleFailed), { tone: 'error' }) },
            )
          }
        />
        {T.downloadable}
      </label>
      <Button variant="ghost" size="sm" onClick={onRename}>
        {T.rename}
      </Button>
      <ConfirmDangerButton
        variant="ghost"
        size="sm"
        busy={remove.isPending}
        ask={{ title: T.deleteTitle, body: T.deleteBody(material.name), confirmLabel: T.delete }}
        onConfirm={(close) =>
          remove.mutate(material.id, {
            onSuccess: () => notify(T.deleted, { tone: 'success' }),
            onError: (error) => notify(failure(error, T.deleteFailed), { tone: 'error' }),
            onSettled: close,
          })
        }
      >
        {T.delete}
      </ConfirmDangerButton>
    </div>
  );
}
