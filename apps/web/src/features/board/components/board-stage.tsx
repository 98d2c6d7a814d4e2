import type { ReactNode } from 'react';
import type { BoardLayout } from '@sea/contract/board';
import type { MaterialPage } from '@sea/contract/materials';
import type { BoardPageRef, BoardState } from '../board-state.ts';
import type { BoardWriter } from '../board-writer.ts';
import type { BoardTool } from '../ink/ink-types.ts';
import { BOARD_TEXTS as T } from '../texts.ts';
import { BoardPage } from './board-page.tsx';
import styles from './presenter.module.css';

export type BoardStageProps = {
  board: BoardState;
  /** The page shown, or null: the screen share has the stage alone. */
  page: BoardPageRef | null;
  pages: readonly MaterialPage[] | undefined;
  /** The screen share (or the student's stage). */
  screen: ReactNode;
  layout?: BoardLayout;
  writer?: BoardWriter | null;
  tool?: BoardTool;
  color?: string;
  width?: number;
};

/** The live room's main stage: the screen share, or the board's page instead of it or beside it. */
export function BoardStage({ board, page, pages, screen, layout = 'board', ...ink }: BoardStageProps) {
  if (!page) return <>{screen}</>;
  return (
    <div className={styles.stage} data-layout={layout} role="region" aria-label={T.canvas}>
      {layout === 'side' && <div className={styles.pane}>{screen}</div>}
      <div className={styles.pane}>
        <BoardPage board={board} page={page} pages={pages} {...ink} />
      </div>
    </div>
  );
}
