import { useEffect, useRef, type PointerEvent as ReactPointerEvent } from 'react';
import { pageKey, type BoardPageRef, type BoardState } from '../board-state.ts';
import { inkPoint, type BoardWriter } from '../board-writer.ts';
import { InkRenderer, type InkSurface } from '../ink/ink-renderer.ts';
import type { BoardTool, InkPoint, PageSize } from '../ink/ink-types.ts';
import { BOARD_TEXTS as T } from '../texts.ts';
import styles from './board.module.css';

/** The eraser's reach around the pointer, in CSS pixels. */
const ERASER_RADIUS_PX = 10;

export type InkCanvasProps = {
  board: BoardState;
  page: BoardPageRef;
  /** The one who may write here (null: read only). */
  writer?: BoardWriter | null;
  tool?: BoardTool;
  color?: string;
  width?: number;
  /** The text tool touched the page at this point (page coordinates): the caller asks for the words. */
  onTextAt?: (x: number, y: number) => void;
};

const newLayer = (): InkSurface => document.createElement('canvas') as unknown as InkSurface;

/**
 * The ink of one page over its picture: a canvas of the page's size at the screen's pixel density, redrawn on
 * the next animation frame after a change of this page's ink or the laser. With a writer, Pointer Events (pen,
 * finger, mouse) draw with the chosen tool.
 */
export function InkCanvas({
  board,
  page,
  writer = null,
  tool = 'pen',
  color = '#000000',
  width = 0.004,
  onTextAt,
}: InkCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const rendererRef = useRef<InkRenderer | null>(null);
  const frameRef = useRef(0);
  const eraserRef = useRef<[number, number] | null>(null);
  const key = pageKey(page);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return undefined;
    const renderer = new InkRenderer(canvas as unknown as InkSurface, newLayer);
    rendererRef.current = renderer;
    const draw = (): void => {
      frameRef.current = 0;
      renderer.draw(board.ink(page), board.laser, performance.now());
      // The laser fades: keep drawing until its last dot is gone.
      if (!board.laser.empty) schedule();
    };
    const schedule = (): void => {
      if (frameRef.current === 0) frameRef.current = requestAnimationFrame(draw);
    };
    const resize = (): void => {
      const box = canvas.getBoundingClientRect();
      renderer.resize({ width: box.width, height: box.height }, window.devicePixelRatio || 1);
      schedule();
    };
    resize();
    const observer = new ResizeObserver(resize);
    observer.observe(canvas);
    const stopInk = board.on('inkChanged', (changed) => {
      if (changed === key) schedule();
    });
    const stopPointer = board.on('pointerMoved', schedule);
    return () => {
      observer.disconnect();
      stopInk();
      stopPointer();
      if (frameRef.current !== 0) cancelAnimationFrame(frameRef.current);
      frameRef.current = 0;
      rendererRef.current = null;
    };
    // `page` is its key's: a new object for the same page must not restart the canvas.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [board, key]);

  const locate = (event: ReactPointerEvent<HTMLCanvasElement>): { at: [number, number]; size: PageSize } => {
    const box = event.currentTarget.getBoundingClientRect();
    const size = { width: box.width || 1, height: box.height || 1 };
    return { at: [(event.clientX - box.left) / size.width, (event.clientY - box.top) / size.height], size };
  };
  const pointOf = (event: PointerEvent | ReactPointerEvent, box: DOMRect): InkPoint =>
    inkPoint(
      (event.clientX - box.left) / (box.width || 1),
      (event.clientY - box.top) / (box.height || 1),
      event.pointerType === 'pen' && event.pressure > 0 ? event.pressure : 0.5,
    );

  const erase = (to: [number, number], size: PageSize): void => {
    if (!writer) return;
    const from = eraserRef.current ?? to;
    // Between two samples of a fast move the eraser passes over what lies between: test along the way.
    const steps = Math.min(
      20,
      Math.ceil(
        Math.hypot((to[0] - from[0]) * size.width, (to[1] - from[1]) * size.height) / ERASER_RADIUS_PX,
      ),
    );
    for (let step = 1; step <= Math.max(1, steps); step += 1) {
      const t = step / Math.max(1, steps);
      writer.eraseAt(
        page,
        [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t],
        ERASER_RADIUS_PX,
        size,
      );
    }
    eraserRef.current = to;
  };

  const onPointerDown = (event: ReactPointerEvent<HTMLCanvasElement>): void => {
    if (!writer || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    const { at, size } = locate(event);
    if (tool === 'eraser') {
      eraserRef.current = null;
      erase(at, size);
    } else if (tool === 'laser') {
      writer.pointer(at[0], at[1]);
    } else if (tool === 'text') {
      onTextAt?.(at[0], at[1]);
    } else {
      writer.begin(page, { tool, color, width }, pointOf(event, event.currentTarget.getBoundingClientRect()));
    }
  };

  const onPointerMove = (event: ReactPointerEvent<HTMLCanvasElement>): void => {
    if (!writer) return;
    const pressed = event.buttons !== 0 || event.pointerType === 'touch';
    const { at, size } = locate(event);
    if (tool === 'laser') {
      if (pressed || event.pointerType === 'mouse') writer.pointer(at[0], at[1]);
      return;
    }
    if (!pressed) return;
    if (tool === 'eraser') {
      erase(at, size);
      return;
    }
    const box = event.currentTarget.getBoundingClientRect();
    // A pen reports more samples than frames: take them all for a smooth line.
    const samples = event.nativeEvent.getCoalescedEvents?.() ?? [];
    const events = samples.length > 0 ? samples : [event.nativeEvent];
    writer.extend(events.map((sample) => pointOf(sample, box)));
  };

  const onPointerUp = (): void => {
    eraserRef.current = null;
    writer?.end();
  };

  return (
    <canvas
      ref={canvasRef}
      className={writer ? styles.inkWritable : styles.ink}
      aria-label={writer ? T.canvasWritable : T.canvas}
      data-page={key}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onPointerLeave={() => {
        if (writer && tool === 'laser') writer.pointer(null, null);
      }}
    />
  );
}
