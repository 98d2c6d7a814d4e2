import { useCallback, useState } from 'react';
import { WHITEBOARD_ID, MAX_WHITEBOARD_PAGES } from '@sea/contract/board';
import { Button } from '../../../components/ui/button.tsx';
import { BOARD_TEXTS as T } from '../texts.ts';
import type { Presenter } from '../use-presenter.ts';
import type { BoardToolbarProps } from './board-toolbar.tsx';
import { BoardToolbar } from './board-toolbar.tsx';
import type { BoardLayout } from '@sea/contract/board';
import { MaterialFind } from './material-find.tsx';
import { PageNavigation } from './page-navigation.tsx';
import { PageThumbnails } from './page-thumbnails.tsx';
import styles from './presenter.module.css';
import { MaterialPicker } from './material-picker.tsx';

export type PresenterPanelProps = {
  presenter: Presenter;
  toolbar: BoardToolbarProps;
  layout: BoardLayout;
  onLayout: (layout: BoardLayout) => void;
  /** Blank pages the whiteboard has. */
  blankPages: number;
  /** The student the teacher let write, and the way to take it back. */
  writer: { nickname: string | null; stop: () => void } | null;
};

/**
 * The teacher's presenting controls under the stage: what is on stage, its layout beside the screen share,
 * the pages (buttons, thumbnails, a new blank page) and the 판서 tools.
 */
export function PresenterPanel({
  presenter,
  toolbar,
  layout,
  onLayout,
  blankPages,
  writer,
}: PresenterPanelProps) {
  const { page } = presenter;
  // The pages the find box found, per material (another material on stage has its own).
  const [found, setFoundBy] = useState<ReadonlyMap<number, ReadonlySet<number>>>(new Map());
  const materialId = presenter.material?.id;
  const setFound = useCallback(
    (pages: ReadonlySet<number>) =>
      void (materialId !== undefined && setFoundBy((known) => new Map(known).set(materialId, pages))),
    [materialId],
  );
  return (
    <section className={styles.panel} aria-label={T.presenter}>
      {!presenter.ready && (
        <p role="status" className={styles.notice}>
          {T.presenterWaiting}
        </p>
      )}
      {/* Until the board is connected nothing the teacher chose would reach the students: the controls wait. */}
      <fieldset className={styles.controls} disabled={!presenter.ready}>
        <div className={styles.row}>
          <MaterialPicker
            materials={presenter.materials}
            materialId={page?.materialId ?? null}
            onShow={(materialId) =>
              presenter.show(materialId, materialId === WHITEBOARD_ID ? Math.max(1, blankPages) : 1)
            }
            onStop={presenter.stop}
          />
          {page && (
            <label className={styles.field}>
              {T.layout}
              <select value={layout} onChange={(event) => onLayout(event.target.value as BoardLayout)}>
                <option value="board">{T.layouts.board}</option>
                <option value="side">{T.layouts.side}</option>
              </select>
            </label>
          )}
          {page && <PageNavigation page={page.page} count={presenter.pageCount} onGo={presenter.go} />}
          <Button
            size="sm"
            variant="secondary"
            disabled={blankPages >= MAX_WHITEBOARD_PAGES}
            onClick={presenter.addBlankPage}
          >
            {T.addBlankPage}
          </Button>
        </div>
        {writer && (
          <p className={styles.row}>
            <span className={styles.notice}>{T.writerIs(writer.nickname ?? T.writing)}</span>
            <Button size="sm" variant="secondary" onClick={writer.stop}>
              {T.stopWriting}
            </Button>
          </p>
        )}
        {page && <BoardToolbar {...toolbar} />}
        {page && presenter.material && (
          <MaterialFind
            key={presenter.material.id}
            classId={presenter.material.class_id}
            materialId={presenter.material.id}
            onFound={setFound}
          />
        )}
        {page && (
          <PageThumbnails
            pages={presenter.material?.pages}
            count={presenter.pageCount}
            current={page.page}
            found={presenter.material ? found.get(presenter.material.id) : undefined}
            onSelect={(number) => presenter.show(page.materialId, number)}
          />
        )}
      </fieldset>
    </section>
  );
}
