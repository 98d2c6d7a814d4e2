import { useCallback, useState } from 'react';
import { WHITEBOARD_ID } from '@sea/contract/board';
import { useCurrentUser } from '../../lib/current-user.ts';
import { useMaterial } from '../../lib/material-queries.ts';
import type { BoardPageRef } from './board-state.ts';
import type { BoardSend } from './board-writer.ts';
import type { BoardStageProps } from './components/board-stage.tsx';
import type { BoardToolbarProps } from './components/board-toolbar.tsx';
import { useBoard, type BoardConnection } from './use-board.ts';
import { useInkTools } from './use-ink-tools.ts';

export type StudentBoard = {
  stage: Omit<BoardStageProps, 'screen'>;
  /** Whether the student sees the teacher's page (else a page of their own choice). */
  following: boolean;
  page: BoardPageRef | null;
  pageCount: number;
  go: (delta: number) => void;
  follow: () => void;
  /** The toolbar when the teacher let this student write, else null. */
  toolbar: BoardToolbarProps | null;
};

/**
 * A student's board: the teacher's page by default; the student may leaf through the material on their own,
 * and '선생님 화면 따라가기' brings them back. The student the teacher invited writes with the same tools.
 */
export function useStudentBoard(classId: number, connection: BoardConnection | null): StudentBoard {
  const me = useCurrentUser().data?.id ?? null;
  const view = useBoard(connection, classId, me);
  const [own, setOwn] = useState<BoardPageRef | null>(null);
  const { stage } = view;
  const teacherPage =
    stage.materialId === null || stage.page === null
      ? null
      : { materialId: stage.materialId, page: stage.page };
  // Leafing stays within what is on stage: a new material on stage brings the student back to the teacher.
  const leafing =
    own !== null && teacherPage !== null && own.materialId === teacherPage.materialId ? own : null;
  const page = leafing ?? teacherPage;
  const detail = useMaterial(classId, page?.materialId ?? null).data;
  const pageCount = page?.materialId === WHITEBOARD_ID ? stage.blankPages : (detail?.pages.length ?? 0);
  const allowed = me !== null && view.writer?.userId === me;
  const send = useCallback<BoardSend>(
    (destination, body) => connection?.publish(destination, body) ?? false,
    [connection],
  );
  const tools = useInkTools(view.board, send, page);
  const writing = allowed && leafing === null;
  return {
    stage: {
      board: view.board,
      page,
      pages: page?.materialId === WHITEBOARD_ID ? undefined : detail?.pages,
      // The teacher's layout: the page instead of the screen share, or beside it.
      layout: stage.layout,
      ...(writing ? { writer: tools.writer, tool: tools.tool, color: tools.color, width: tools.width } : {}),
    },
    following: leafing === null,
    page,
    pageCount,
    go: (delta) => {
      if (!page) return;
      const next = page.page + delta;
      if (next < 1 || next > pageCount) return;
      setOwn(teacherPage && next === teacherPage.page ? null : { materialId: page.materialId, page: next });
    },
    follow: () => setOwn(null),
    toolbar: writing ? tools.toolbar : null,
  };
}
