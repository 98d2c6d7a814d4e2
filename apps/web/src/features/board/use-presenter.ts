import { useEffect } from 'react';
import { BOARD_PAGE_DESTINATION, WHITEBOARD_ID, MAX_WHITEBOARD_PAGES } from '@sea/contract/board';
import type { Material, MaterialDetail } from '@sea/contract/materials';
import { useMaterial, useMaterials } from '../../lib/material-queries.ts';
import type { BoardPageRef } from './board-state.ts';
import type { BoardSend } from './board-writer.ts';
import type { BoardView } from './use-board.ts';

export type Presenter = {
  /** Whether the stage can be changed now (the board is connected and loaded: {@link BoardView.ready}). */
  ready: boolean;
  /** The class's ready materials, to choose from. */
  materials: Material[];
  /** The page on stage, or null while the screen share has the stage. */
  page: BoardPageRef | null;
  /** The material on stage with its pages (undefined for the whiteboard, or while loading). */
  material: MaterialDetail | undefined;
  /** Pages of what is on stage. */
  pageCount: number;
  show: (materialId: number, page: number) => void;
  /** Leaves the stage to the screen share. */
  stop: () => void;
  go: (delta: number) => void;
  addBlankPage: () => void;
};

/** Keys that move between pages, and the way they move. */
const PAGE_KEYS: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, PageUp: -1, PageDown: 1 };

/** Whether a key press belongs to a field being typed into (never a page turn). */
function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/**
 * The teacher's presenting: which material and page are on stage (the server's stage, as every student sees
 * it), and the ways to change it: choosing a material, the thumbnails, ←/→ and PageUp/PageDown, a new blank
 * page, leaving the stage to the screen share.
 */
export function usePresenter(classId: number, view: BoardView, send: BoardSend): Presenter {
  const materials = useMaterials(classId).data?.filter((material) => material.state === 'ready') ?? [];
  const { stage } = view;
  const detail = useMaterial(classId, stage.materialId).data;
  const page =
    stage.materialId === null || stage.page === null
      ? null
      : { materialId: stage.materialId, page: stage.page };
  const whiteboard = stage.materialId === WHITEBOARD_ID;
  // While the material's pages load, the list's count: a teacher who presses → at once still turns the page.
  const listed = materials.find((material) => material.id === stage.materialId)?.pages ?? 0;
  const pageCount = whiteboard ? stage.blankPages : (detail?.pages.length ?? listed);
  const show = (materialId: number, number: number): void => {
    send(BOARD_PAGE_DESTINATION, { materialId, page: number });
  };
  const go = (delta: number): void => {
    if (!page || !view.ready) return;
    const next = page.page + delta;
    if (next >= 1 && next <= pageCount) show(page.materialId, next);
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const delta = PAGE_KEYS[event.key];
      if (delta === undefined || typing(event.target) || event.altKey || event.ctrlKey || event.metaKey)
        return;
      event.preventDefault();
      go(delta);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return {
    ready: view.ready,
    materials,
    page,
    material: whiteboard ? undefined : detail,
    pageCount,
    show,
    stop: () => send(BOARD_PAGE_DESTINATION, { materialId: null, page: null }),
    go,
    addBlankPage: () => {
      if (stage.blankPages < MAX_WHITEBOARD_PAGES) show(WHITEBOARD_ID, stage.blankPages + 1);
    },
  };
}
