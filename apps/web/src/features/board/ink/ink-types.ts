/* The ink of one page, as the engine holds it: strokes in page coordinates (0..1 both ways). */

/** A point of a stroke: x and y in page coordinates (0..1), and the pen's pressure (0..1). */
export type InkPoint = readonly [x: number, y: number, pressure: number];

import type { InkTool } from '@sea/contract/board';

export type { InkTool } from '@sea/contract/board';

/** Every tool of the toolbar: the ink tools, the eraser (whole strokes) and the laser pointer (no ink). */
export type BoardTool = InkTool | 'eraser' | 'laser';

/** The tools whose ink is a shape between the first and the last point. */
export const SHAPE_TOOLS: ReadonlySet<InkTool> = new Set(['line', 'rect', 'ellipse', 'arrow']);

/** One stroke: its points so far, its look, and whether the pen has lifted. */
export type Stroke = {
  id: string;
  tool: InkTool;
  /** A CSS colour (`#rrggbb`). */
  color: string;
  /** Thickness (a text's font size) as a fraction of the page's width, so ink keeps its look at any size. */
  width: number;
  points: InkPoint[];
  /** The words of a text stroke (drawn at its first point). */
  text?: string;
  /** False while the stroke is still being drawn. */
  done: boolean;
};

/** The page's pixel size on screen (CSS pixels), which turns page coordinates into pixels. */
export type PageSize = { width: number; height: number };
