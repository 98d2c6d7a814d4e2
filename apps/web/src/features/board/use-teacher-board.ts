import { useCallback } from 'react';
import { BOARD_PAGE_DESTINATION, BOARD_WRITER_DESTINATION } from '@sea/contract/board';
import { useCurrentUser } from '../../lib/current-user.ts';
import type { BoardLayout } from '@sea/contract/board';
import type { BoardStageProps } from './components/board-stage.tsx';
import type { PresenterPanelProps } from './components/presenter-panel.tsx';
import type { BoardSend } from './board-writer.ts';
import { useBoard, type BoardConnection, type BoardView } from './use-board.ts';
import { useInkTools } from './use-ink-tools.ts';
import { usePresenter } from './use-presenter.ts';

export type TeacherBoard = {
  view: BoardView;
  /** The stage's props but the screen share, which the route gives. */
  stage: Omit<BoardStageProps, 'screen'>;
  panel: PresenterPanelProps;
};

/** The teacher's board in the live room: the stage, the presenting controls and the 판서 tools together. */
export function useTeacherBoard(classId: number, connection: BoardConnection | null): TeacherBoard {
  const me = useCurrentUser().data?.id ?? null;
  const view = useBoard(connection, classId, me);
  const send = useCallback<BoardSend>(
    (destination, body) => connection?.publish(destination, body) ?? false,
    [connection],
  );
  const presenter = usePresenter(classId, view, send);
  const tools = useInkTools(view.board, send, presenter.page);
  // The layout is the stage's, as students get it: changing it puts the same page on stage in the new one.
  const { layout } = view.stage;
  const onLayout = (next: BoardLayout): void => {
    const { page } = presenter;
    if (page) send(BOARD_PAGE_DESTINATION, { materialId: page.materialId, page: page.page, layout: next });
  };
  return {
    view,
    stage: {
      board: view.board,
      page: presenter.page,
      pages: presenter.material?.pages,
      layout,
      writer: tools.writer,
      tool: tools.tool,
      color: tools.color,
      width: tools.width,
    },
    panel: {
      presenter,
      toolbar: tools.toolbar,
      layout,
      onLayout,
      blankPages: view.stage.blankPages,
      writer: view.writer && {
        nickname: view.writer.nickname,
        stop: () => void send(BOARD_WRITER_DESTINATION, { userId: null }),
      },
    },
  };
}
