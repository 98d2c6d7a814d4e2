import { useState } from 'react';
import type { Material } from '@sea/contract/materials';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { MATERIAL_TEXTS as T } from '../texts.ts';
import { MaterialTeacherActions } from './material-teacher-actions.tsx';
import { RenameMaterialForm } from './rename-material-form.tsx';
import { useMaterialMutations } from '../api/material-mutations.ts';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import styles from './materials.module.css';

/** One material: its name, kind and state (the conversion's progress, its pages, or why it failed). */
export function MaterialRow({
  classId,
  material,
  role,
}: {
  classId: number;
  material: Material;
  role: 'teacher' | 'student';
}) {
  const [renaming, setRenaming] = useState(false);
  const { patch } = useMaterialMutations(classId);
  const notify = useNotify();
  return (
    <li className={styles.item} data-state={material.state}>
      <div className={styles.main}>
        {renaming ? (
          <RenameMaterialForm
            initial={material.name}
            busy={patch.isPending}
            onCancel={() => setRenaming(false)}
            onSave={(name) =>
              patch.mutate(
                { materialId: material.id, patch: { name } },
                {
                  onSuccess: () => setRenaming(false),
                  onError: (error) =>
                    notify((isHttpError(error) && error.messageKor) || T.renameFailed, { tone: 'error' }),
                },
              )
            }
          />
        ) : (
          <span className={styles.name}>{material.name}</span>
        )}
        <span className={styles.meta}>
          {T.kind[material.kind] ?? material.kind}
          {material.state === 'ready' && ` · ${T.ready(material.pages)}`}
          {material.state === 'failed' && ` · ${T.failed}`}
        </span>
        {material.state === 'converting' && (
          <>
            <span className={styles.meta}>{T.converting(material.progress)}</span>
            <ProgressBar value={material.progress / 100} label={T.convertingLabel} />
          </>
        )}
        {material.state === 'failed' && material.error && (
          <p role="alert" className={styles.failed}>
            {material.error}
          </p>
        )}
      </div>
      <div className={styles.side}>
        {material.download_url && (
          <a
            className={buttonClassName({ size: 'sm', variant: 'secondary' })}
            href={material.download_url}
            download={`${material.name}.pdf`}
          >
            {T.download}
          </a>
        )}
        {role === 'teacher' && !renaming && (
          <MaterialTeacherActions classId={classId} material={material} onRename={() => setRenaming(true)} />
        )}
      </div>
    </li>
  );
}
