import { useRef, useState } from 'react';
import { MATERIAL_ACCEPT } from '@sea/contract/materials';
import { Button } from '../../../components/ui/button.tsx';
import { ProgressBar } from '../../../components/ui/progress-bar.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { uploadMaterial, useMaterialMutations } from '../api/material-mutations.ts';
import { fileProblem } from '../file-check.ts';
import { MATERIAL_TEXTS as T } from '../texts.ts';
import styles from './materials.module.css';

/** '자료 올리기': picks one file, checks its kind and size here, and shows the upload's progress. */
export function MaterialUpload({ classId }: { classId: number }) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { refresh } = useMaterialMutations(classId);
  const notify = useNotify();

  const upload = (file: File): void => {
    const local = fileProblem(file);
    setProblem(local);
    if (local) return;
    setProgress(0);
    uploadMaterial(classId, file, setProgress)
      .then((material) => notify(T.uploaded(material.name), { tone: 'success' }))
      .catch((error: unknown) => {
        // The server's Korean reason (a broken, encrypted or too long file...) is what the teacher needs.
        setProblem(isHttpError(error) && error.messageKor ? error.messageKor : T.uploadFailed);
      })
      .finally(() => {
        setProgress(null);
        void refresh();
      });
  };

  return (
    <div className={styles.upload}>
      <input
        ref={input}
        className="visually-hidden"
        type="file"
        accept={MATERIAL_ACCEPT}
        aria-label={T.upload}
        tabIndex={-1}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) upload(file);
        }}
      />
      <div className={styles.uploadRow}>
        <Button size="sm" disabled={progress !== null} onClick={() => input.current?.click()}>
          {progress === null ? T.upload : T.uploading(Math.round(progress * 100))}
        </Button>
        <span className={styles.hint}>{T.uploadHint}</span>
      </div>
      {progress !== null && <ProgressBar value={progress} label={T.uploadProgress} />}
      {problem && (
        <p role="alert" className={styles.failed}>
          {problem}
        </p>
      )}
    </div>
  );
}
