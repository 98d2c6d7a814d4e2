import { strokePixels, textPixels } from './draw-stroke.ts';
import type { InkPoint, PageSize, Stroke } from './ink-types.ts';

type Xy = [number, number];

const ELLIPSE_STEPS = 48;

/** Distance in pixels from a point to the segment a-b. */
export function distanceToSegment(p: Xy, a: Xy, b: Xy): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** The outline a stroke covers, in pixels, as a list of polylines. */
function outline(stroke: Stroke, size: PageSize): Xy[][] {
  const pixels = stroke.points.map((point: InkPoint): Xy => [point[0] * size.width, point[1] * size.height]);
  const first = pixels[0];
  const last = pixels[pixels.length - 1];
  if (!first || !last) return [];
  switch (stroke.tool) {
    case 'pen':
    case 'highlighter':
      return [pixels];
    case 'line':
    case 'arrow':
      return [[first, last]];
    case 'rect':
      return [[first, [last[0], first[1]], last, [first[0], last[1]], first]];
    case 'ellipse': {
      const cx = (first[0] + last[0]) / 2;
      const cy = (first[1] + last[1]) / 2;
      const rx = Math.abs(last[0] - first[0]) / 2;
      const ry = Math.abs(last[1] - first[1]) / 2;
      return [
        Array.from({ length: ELLIPSE_STEPS + 1 }, (_, step): Xy => {
          const angle = (step / ELLIPSE_STEPS) * 2 * Math.PI;
          return [cx + rx * Math.cos(angle), cy + ry * Math.sin(angle)];
        }),
      ];
    }
    case 'text': {
      const height = textPixels(stroke, size);
      const width = Math.max(height, (stroke.text ?? '').length * height * 0.9);
      // The box's diagonals and edges: a touch anywhere on the words counts.
      const box: Xy[] = [
        first,
        [first[0] + width, first[1]],
        [first[0] + width, first[1] + height],
        [first[0], first[1] + height],
        first,
      ];
      return [
        box,
        [first, [first[0] + width, first[1] + height]],
        [
          [first[0] + width, first[1]],
          [first[0], first[1] + height],
        ],
      ];
    }
  }
}

/** True when the circle of `radius` pixels around page point `at` touches the stroke's ink. */
export function touches(
  stroke: Stroke,
  at: readonly [number, number],
  radius: number,
  size: PageSize,
): boolean {
  const p: Xy = [at[0] * size.width, at[1] * size.height];
  const reach = radius + strokePixels(stroke, size) / 2;
  for (const line of outline(stroke, size)) {
    if (line.length === 1 && line[0] && Math.hypot(p[0] - line[0][0], p[1] - line[0][1]) <= reach)
      return true;
    for (let index = 1; index < line.length; index += 1) {
      const a = line[index - 1];
      const b = line[index];
      if (a && b && distanceToSegment(p, a, b) <= reach) return true;
    }
  }
  return false;
}

/** The ids of the strokes the eraser touches at a point. */
export function strokesTouched(
  strokes: readonly Stroke[],
  at: readonly [number, number],
  radius: number,
  size: PageSize,
): string[] {
  return strokes.filter((stroke) => touches(stroke, at, radius, size)).map((stroke) => stroke.id);
}
