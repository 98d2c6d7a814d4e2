import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { pageKey, type BoardPageRef, type BoardState } from './board-state.ts';
import { BoardWriter, type BoardSend } from './board-writer.ts';
import { HIGHLIGHTER_COLOR, INK_COLORS, inkWidth } from './ink-style.ts';
import type { BoardTool } from './ink/ink-types.ts';
import type { BoardToolbarProps } from './components/board-toolbar.tsx';

export type InkTools = {
  writer: BoardWriter;
  tool: BoardTool;
  color: string;
  width: number;
  /** The toolbar's props for the page being written on. */
  toolbar: BoardToolbarProps;
};

/**
 * The writer's tools on one page: a {@link BoardWriter} sending through `send`, the chosen tool, colour and
 * width, and the toolbar's state (undo and redo follow the page's ink).
 */
export function useInkTools(board: BoardState, send: BoardSend, page: BoardPageRef | null): InkTools {
  // The writer lives as long as the page; it sends through the newest connection.
  const sendRef = useRef(send);
  sendRef.current = send;
  const [writer] = useState(
    () => new BoardWriter(board, (destination, body) => sendRef.current(destination, body)),
  );
  const [tool, setTool] = useState<BoardTool>('pen');
  const [color, setColor] = useState<string>(INK_COLORS[0]);
  const [widthStep, setWidthStep] = useState(1);
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const key = page ? pageKey(page) : null;
  useEffect(() => board.on('inkChanged', (changed) => changed === key && rerender()), [board, key]);
  const history = page ? writer.history(page) : null;
  const toolbar = useMemo<BoardToolbarProps>(
    () => ({
      tool,
      color,
      widthStep,
      canUndo: history?.canUndo ?? false,
      canRedo: history?.canRedo ?? false,
      onTool: (next) => {
        setTool(next);
        if (next === 'highlighter' && color === INK_COLORS[0]) setColor(HIGHLIGHTER_COLOR);
      },
      onColor: setColor,
      onWidth: setWidthStep,
      onUndo: () => page && writer.undo(page),
      onRedo: () => page && writer.redo(page),
      onClear: () => page && writer.clear(page),
    }),
    // The history's flags are read on every render (rerendered on each ink change of the page).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [tool, color, widthStep, history?.canUndo, history?.canRedo, writer, key],
  );
  return { writer, tool, color, width: inkWidth(tool, widthStep), toolbar };
}
