import { Card } from '../../../components/ui/card.tsx';
import { useMaterials } from '../../../lib/material-queries.ts';
import { MATERIAL_TEXTS as T } from '../texts.ts';
import { MaterialRow } from './material-row.tsx';
import { MaterialUpload } from './material-upload.tsx';
import styles from './materials.module.css';

/**
 * A class's materials on its dashboard, newest first. The teacher uploads (with the upload's and then the
 * conversion's progress), renames, lets students download and deletes; students see the list and download
 * what the teacher allows. The list refreshes by itself while a material converts.
 */
export function MaterialsCard({ classId, role }: { classId: number; role: 'teacher' | 'student' }) {
  const materials = useMaterials(classId);
  const items = materials.data;
  const teacher = role === 'teacher';
  const visible = teacher ? items : items?.filter((material) => material.state === 'ready');
  return (
    <Card title={T.title}>
      {teacher && <MaterialUpload classId={classId} />}
      {materials.isError && (
        <p role="alert" className={styles.failed}>
          {T.loadFailed}
        </p>
      )}
      {visible !== undefined && visible.length === 0 && (
        <p className={styles.empty}>{teacher ? T.empty : T.emptyStudent}</p>
      )}
      {visible !== undefined && visible.length > 0 && (
        <ol className={styles.list} aria-label={T.title}>
          {visible.map((material) => (
            <MaterialRow key={material.id} classId={classId} material={material} role={role} />
          ))}
        </ol>
      )}
    </Card>
  );
}
