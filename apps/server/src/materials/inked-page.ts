import { loadSharp } from '../load-sharp.ts';
import type { Stroke } from '@sea/contract/board';

/** A picture's size in pixels. */
export type Size = { width: number; height: number };

/** The highlighter's look: translucent, and this many times the pen's width. */
const HIGHLIGHTER = { opacity: 0.35, widthFactor: 3 };

/**
 * A page with its ink as one picture of `frame` size (the page letterboxed on white): the page's image (null:
 * a blank whiteboard page, 4:3) and its strokes drawn as SVG over it, for pictures made on the server (the
 * replay's MP4). Pressure is not drawn: every stroke keeps its width.
 */
export async function inkedPage(
  page: Buffer | null,
  strokes: readonly Stroke[],
  frame: Size,
): Promise<Buffer> {
  const sharp = await loadSharp();
  const source = page === null ? null : await sharp(page).metadata();
  const aspect = source?.width && source.height ? source.width / source.height : 4 / 3;
  const width = Math.min(frame.width, Math.round(frame.height * aspect));
  const height = Math.min(frame.height, Math.round(width / aspect));
  const base =
    page === null
      ? sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).png()
      : sharp(page).resize({ width, height, fit: 'fill' });
  const ink = Buffer.from(inkSvg(strokes, { width, height }));
  const drawn = await base
    .composite([{ input: ink, left: 0, top: 0 }])
    .png()
    .toBuffer();
  return sharp({ create: { ...frame, channels: 3, background: '#ffffff' } })
    .composite([
      {
        input: drawn,
        left: Math.floor((frame.width - width) / 2),
        top: Math.floor((frame.height - height) / 2),
      },
    ])
    .png()
    .toBuffer();
}

/** The strokes of a page as an SVG of the page's size. */
export function inkSvg(strokes: readonly Stroke[], size: Size): string {
  const shapes = strokes.map((stroke) => shape(stroke, size)).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}">${shapes}</svg>`;
}

function shape(stroke: Stroke, size: Size): string {
  const points = stroke.points.map(([x, y]) => [round(x * size.width), round(y * size.height)] as const);
  const first = points[0];
  const last = points.at(-1);
  if (first === undefined || last === undefined) return '';
  const highlighter = stroke.tool === 'highlighter';
  const width = round(stroke.width * size.width * (highlighter ? HIGHLIGHTER.widthFactor : 1));
  const paint =
    `fill="none" stroke="${stroke.color}" stroke-width="${Math.max(1, width)}" stroke-linecap="round" ` +
    `stroke-linejoin="round"${highlighter ? ` stroke-opacity="${HIGHLIGHTER.opacity}"` : ''}`;
  const [x1, y1] = first;
  const [x2, y2] = last;
  switch (stroke.tool) {
    case 'line':
      return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" ${paint}/>`;
    case 'arrow':
      return `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" ${paint}/>${arrowHead(first, last, width, paint)}`;
    case 'rect':
      return `<rect x="${Math.min(x1, x2)}" y="${Math.min(y1, y2)}" width="${Math.abs(x2 - x1)}" height="${Math.abs(y2 - y1)}" ${paint}/>`;
    case 'ellipse':
      return `<ellipse cx="${(x1 + x2) / 2}" cy="${(y1 + y2) / 2}" rx="${Math.abs(x2 - x1) / 2}" ry="${Math.abs(y2 - y1) / 2}" ${paint}/>`;
    case 'text':
      return `<text x="${x1}" y="${y1 + width}" font-size="${Math.max(1, width)}" font-family="sans-serif" fill="${stroke.color}">${escape(stroke.text ?? '')}</text>`;
    default:
      return `<polyline points="${points.map(([x, y]) => `${x},${y}`).join(' ')}" ${paint}/>`;
  }
}

function arrowHead(from: readonly number[], to: readonly number[], width: number, paint: string): string {
  const [x1 = 0, y1 = 0] = from;
  const [x2 = 0, y2 = 0] = to;
  const angle = Math.atan2(y2 - y1, x2 - x1);
  const length = Math.max(8, width * 4);
  const wing = (turn: number) =>
    `${round(x2 - length * Math.cos(angle + turn))},${round(y2 - length * Math.sin(angle + turn))}`;
  return `<polyline points="${wing(0.5)} ${x2},${y2} ${wing(-0.5)}" ${paint}/>`;
}

const round = (value: number) => Math.round(value * 10) / 10;

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
