import { useCallback, useState } from 'react';
import { BOARD_WRITER_DESTINATION } from '@sea/contract/board';
import { useCurrentUser } from '../../lib/current-user.ts';
import type { BoardStageProps, BoardLayout } from './components/board-stage.tsx';
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
  const [layout, setLayout] = useState<BoardLayout>('board');
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
      onLayout: setLayout,
      blankPages: view.stage.blankPages,
      writer: view.writer && {
        nickname: view.writer.nickname,
        stop: () => void send(BOARD_WRITER_DESTINATION, { userId: null }),
      },
    },
  };
}
