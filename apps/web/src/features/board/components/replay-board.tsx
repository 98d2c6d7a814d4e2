import { useEffect, useMemo, useState } from 'react';
import type { SessionBoard } from '@sea/contract/board';
import { useMaterial } from '../../../lib/material-queries.ts';
import { BoardState } from '../board-state.ts';
import { replayFrame } from '../replay-frame.ts';
import { BOARD_TEXTS as T } from '../texts.ts';
import { BoardPage } from './board-page.tsx';
import styles from './replay-board.module.css';

/**
 * The material and its ink as they were at the replay's current moment, drawn from the session's board (not
 * read off the video): it follows playing and seeking alike, since it only depends on the time.
 */
export function ReplayBoard({
  classId,
  board,
  timeMs,
}: {
  classId: number;
  board: SessionBoard;
  timeMs: number;
}) {
  const [state] = useState(() => new BoardState(null));
  const frame = useMemo(() => replayFrame(board, timeMs), [board, timeMs]);
  const { signature } = frame;
  useEffect(() => {
    if (!frame.page) return;
    const ink = state.ink(frame.page);
    ink.clear();
    ink.load(frame.strokes);
    state.touch(frame.page);
    // The frame's signature says when its strokes changed; a new frame object alone changes nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, signature]);
  const material = useMaterial(classId, frame.page?.materialId ?? null).data;
  return (
    <section className={styles.board} aria-label={T.replayBoard}>
      {frame.page ? (
        <BoardPage board={state} page={frame.page} pages={material?.pages} />
      ) : (
        <p className={styles.none}>{T.noBoardYet}</p>
      )}
    </section>
  );
}
