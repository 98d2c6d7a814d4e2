import { WHITEBOARD_ID } from '@sea/contract/board';
import type { Material } from '@sea/contract/materials';
import { BOARD_TEXTS as T } from '../texts.ts';
import styles from './presenter.module.css';

const NONE = 'none';

/** The teacher's choice of what is on stage: nothing (the screen share), the whiteboard, or a material. */
export function MaterialPicker({
  materials,
  materialId,
  onShow,
  onStop,
}: {
  materials: Material[];
  materialId: number | null;
  onShow: (materialId: number) => void;
  onStop: () => void;
}) {
  return (
    <label className={styles.field}>
      {T.materialSelect}
      <select
        value={materialId === null ? NONE : String(materialId)}
        onChange={(event) => {
          if (event.target.value === NONE) onStop();
          else onShow(Number(event.target.value));
        }}
      >
        <option value={NONE}>{T.noMaterial}</option>
        <option value={String(WHITEBOARD_ID)}>{T.whiteboardOption}</option>
        {materials.map((material) => (
          <option key={material.id} value={String(material.id)}>
            {material.name}
          </option>
        ))}
      </select>
    </label>
  );
}
