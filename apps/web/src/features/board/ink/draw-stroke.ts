import { getStroke } from 'perfect-freehand';
import type { InkPoint, PageSize, Stroke } from './ink-types.ts';

/** The part of the canvas 2D context the ink uses (a real context, or a recording fake in tests). */
export type InkContext = Pick<
  CanvasRenderingContext2D,
  | 'beginPath'
  | 'moveTo'
  | 'lineTo'
  | 'closePath'
  | 'fill'
  | 'stroke'
  | 'ellipse'
  | 'rect'
  | 'fillText'
  | 'save'
  | 'restore'
  | 'fillStyle'
  | 'strokeStyle'
  | 'lineWidth'
  | 'lineCap'
  | 'lineJoin'
  | 'globalAlpha'
  | 'font'
  | 'textBaseline'
>;

/** How see-through the highlighter is (the tool's, not the colour's: board.ts). */
export const HIGHLIGHTER_ALPHA = 0.35;
const ARROW_HEAD = 4;

/** A stroke's thickness in pixels on a page of this size (its width is a fraction of the page's width). */
export function strokePixels(stroke: Pick<Stroke, 'tool' | 'width'>, size: PageSize): number {
  return stroke.tool === 'text' ? 1 : stroke.width * size.width;
}

/** A text stroke's font size in pixels: its width, a fraction of the page's width. */
export function textPixels(stroke: Pick<Stroke, 'width'>, size: PageSize): number {
  return Math.max(6, stroke.width * size.width);
}

const toPixels = (point: InkPoint, size: PageSize): [number, number, number] => [
  point[0] * size.width,
  point[1] * size.height,
  point[2],
];

/** Draws one stroke on a context whose units are the page's CSS pixels. */
export function drawStroke(context: InkContext, stroke: Stroke, size: PageSize): void {
  const first = stroke.points[0];
  if (!first) return;
  const last = stroke.points[stroke.points.length - 1] ?? first;
  const width = strokePixels(stroke, size);
  context.save();
  context.fillStyle = stroke.color;
  context.strokeStyle = stroke.color;
  context.lineWidth = width;
  context.lineCap = 'round';
  context.lineJoin = 'round';
  const [x0, y0] = toPixels(first, size);
  const [x1, y1] = toPixels(last, size);
  switch (stroke.tool) {
    case 'pen':
      fillPen(context, stroke, size, width);
      break;
    case 'highlighter':
      context.globalAlpha = HIGHLIGHTER_ALPHA;
      polyline(context, stroke.points, size);
      break;
    case 'line':
      segment(context, x0, y0, x1, y1);
      break;
    case 'arrow':
      arrow(context, x0, y0, x1, y1, width);
      break;
    case 'rect':
      context.beginPath();
      context.rect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
      context.stroke();
      break;
    case 'ellipse':
      context.beginPath();
      context.ellipse(
        (x0 + x1) / 2,
        (y0 + y1) / 2,
        Math.abs(x1 - x0) / 2,
        Math.abs(y1 - y0) / 2,
        0,
        0,
        2 * Math.PI,
      );
      context.stroke();
      break;
    case 'text':
      context.font = `${textPixels(stroke, size)}px Pretendard, sans-serif`;
      context.textBaseline = 'top';
      context.fillText(stroke.text ?? '', x0, y0);
      break;
  }
  context.restore();
}

/** The pen: an outline from the points and their pressure (perfect-freehand), filled. */
function fillPen(context: InkContext, stroke: Stroke, size: PageSize, width: number): void {
  const outline = getStroke(
    stroke.points.map((point) => toPixels(point, size)),
    {
      size: width,
      thinning: 0.6,
      smoothing: 0.5,
      streamline: 0.4,
      simulatePressure: false,
      last: stroke.done,
    },
  );
  const [start, ...rest] = outline;
  if (!start) return;
  context.beginPath();
  context.moveTo(start[0], start[1]);
  for (const [x, y] of rest) context.lineTo(x, y);
  context.closePath();
  context.fill();
}

function polyline(context: InkContext, points: readonly InkPoint[], size: PageSize): void {
  context.beginPath();
  points.forEach((point, index) => {
    const [x, y] = toPixels(point, size);
    if (index === 0) context.moveTo(x, y);
    else context.lineTo(x, y);
  });
  // A single point still shows as a dot.
  if (points.length === 1 && points[0])
    context.lineTo(points[0][0] * size.width + 0.01, points[0][1] * size.height);
  context.stroke();
}

function segment(context: InkContext, x0: number, y0: number, x1: number, y1: number): void {
  context.beginPath();
  context.moveTo(x0, y0);
  context.lineTo(x1, y1);
  context.stroke();
}

function arrow(context: InkContext, x0: number, y0: number, x1: number, y1: number, width: number): void {
  segment(context, x0, y0, x1, y1);
  const angle = Math.atan2(y1 - y0, x1 - x0);
  const head = Math.max(8, width * ARROW_HEAD);
  context.beginPath();
  context.moveTo(x1, y1);
  context.lineTo(x1 - head * Math.cos(angle - Math.PI / 7), y1 - head * Math.sin(angle - Math.PI / 7));
  context.lineTo(x1 - head * Math.cos(angle + Math.PI / 7), y1 - head * Math.sin(angle + Math.PI / 7));
  context.closePath();
  context.fill();
}
