import { useState, type CSSProperties } from 'react';
import type { MaterialPage } from '@sea/contract/materials';
import { WHITEBOARD_ID } from '@sea/contract/board';
import type { BoardPageRef, BoardState } from '../board-state.ts';
import { inkPoint, type BoardWriter } from '../board-writer.ts';
import type { BoardTool } from '../ink/ink-types.ts';
import { BOARD_TEXTS as T } from '../texts.ts';
import { InkCanvas } from './ink-canvas.tsx';
import { TextInput } from './text-input.tsx';
import styles from './board.module.css';

/** A whiteboard page's shape: the screen's. */
const BLANK_RATIO = 16 / 9;

export type BoardPageProps = {
  board: BoardState;
  page: BoardPageRef;
  /** The material's pages (undefined while loading; the whiteboard has none). */
  pages?: readonly MaterialPage[] | undefined;
  writer?: BoardWriter | null;
  tool?: BoardTool;
  color?: string;
  width?: number;
};

/**
 * One page on the stage: the material's image (or a white page) fitted into the area with its own shape, the
 * ink canvas exactly over it, and the text tool's input where the page was touched.
 */
export function BoardPage({ board, page, pages, writer = null, tool, color, width }: BoardPageProps) {
  const [textAt, setTextAt] = useState<[number, number] | null>(null);
  const blank = page.materialId === WHITEBOARD_ID;
  const image = blank ? undefined : pages?.find((candidate) => candidate.number === page.page);
  const ratio = image ? image.width / image.height : BLANK_RATIO;
  return (
    <div className={styles.fit}>
      <div
        className={styles.page}
        style={{ '--page-ratio': ratio } as CSSProperties}
        data-board-page={`${page.materialId}:${page.page}`}
      >
        {image ? (
          <img
            className={styles.image}
            src={image.image_url}
            alt={image.title ?? T.pageImage(page.page)}
            draggable={false}
          />
        ) : (
          !blank && <p className={styles.pageNote}>{T.loadingPage}</p>
        )}
        <InkCanvas
          board={board}
          page={page}
          writer={writer}
          {...(tool === undefined ? {} : { tool })}
          {...(color === undefined ? {} : { color })}
          {...(width === undefined ? {} : { width })}
          onTextAt={(x, y) => setTextAt([x, y])}
        />
        {textAt && writer && (
          <TextInput
            at={textAt}
            onCancel={() => setTextAt(null)}
            onSubmit={(text) => {
              writer.begin(
                page,
                { tool: 'text', color: color ?? '#000000', width: width ?? 0.03 },
                inkPoint(textAt[0], textAt[1], 0.5),
                text,
              );
              writer.end();
              setTextAt(null);
            }}
          />
        )}
      </div>
    </div>
  );
}
