import type { BoardTool } from './ink/ink-types.ts';

/** The colours of the toolbar. */
export const INK_COLORS = ['#10243e', '#e5343d', '#1d6fd6', '#1c8c5a', '#f0a500', '#ffffff'] as const;

/** The three widths of each tool (fractions of the page's width; a text's font size). */
const WIDTHS: Record<'pen' | 'highlighter' | 'text', readonly [number, number, number]> = {
  pen: [0.002, 0.004, 0.008],
  highlighter: [0.012, 0.02, 0.032],
  text: [0.02, 0.03, 0.045],
};

/** The width a tool draws with at a step of the toolbar's '굵기' (0 thin, 1 medium, 2 thick). */
export function inkWidth(tool: BoardTool, step: number): number {
  const widths = tool === 'highlighter' ? WIDTHS.highlighter : tool === 'text' ? WIDTHS.text : WIDTHS.pen;
  return widths[Math.max(0, Math.min(2, step))] ?? widths[1];
}

/** The highlighter's colour by default: yellow reads best under it. */
export const HIGHLIGHTER_COLOR = '#f0a500';
