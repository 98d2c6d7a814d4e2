import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { WHITEBOARD_ID } from '@sea/contract/board';
import type { Stroke } from '@sea/contract/board';
import type { Executor } from '../db/database.ts';
import { loadSharp } from '../load-sharp.ts';
import { inkedPage } from '../materials/inked-page.ts';
import { findMaterial } from '../materials/material-store.ts';
import { MATERIAL_FILES } from '../materials/material-urls.ts';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { boardAt, type BoardFrame, type BoardPageRef, type IndexedBoard } from './board-frames.ts';
import { type BoardStretch, FRAME, SIDE_BOX } from './composition-plan.ts';

/** Page images kept decoded while the pictures are made (a lecture goes back and forth between a few pages). */
const PAGES_KEPT = 8;

/**
 * One picture of the board shown over a stretch of the replay (ms): `file` in the pictures' folder, named after
 * `signature` (what it shows).
 */
export type BoardShow = { file: string; signature: string; fromMs: number; untilMs: number };

/**
 * The board's pictures, made: what shows from replay time 0 on, one stretch after another, and where the board
 * is on stage.
 */
export type BoardPictures = { dir: string; shows: BoardShow[]; onStage: BoardStretch[] };

/** Reads a page's image (null: a whiteboard page, or a material gone since: drawn on white). */
export type PageReader = (page: BoardPageRef) => Promise<Buffer | null>;

/**
 * Renders each different look of the board once (`materials/inked-page.ts`, the replay's frame size, PNG;
 * {@link boardPicture}) into `dir`, named after what it shows, so a picture made by an earlier run (while the
 * lecture went on) is not made again. Where nothing is on stage the shows hold the last picture on (the
 * composition hides the board there), before the first page the first.
 */
export async function renderBoardPictures(
  board: IndexedBoard,
  frames: readonly BoardFrame[],
  dir: string,
  readPage: PageReader,
  signal: AbortSignal,
): Promise<BoardPictures | null> {
  const first = frames[0];
  if (first === undefined) return null;
  await fs.mkdir(dir, { recursive: true });
  const made = new Set(await fs.readdir(dir));
  const pages = new Map<string, Buffer | null>();
  const shows: BoardShow[] = [];
  const show = (picture: Omit<BoardShow, 'fromMs' | 'untilMs'>, fromMs: number, untilMs: number) => {
    if (untilMs > fromMs) shows.push({ ...picture, fromMs, untilMs });
  };
  let reached = 0;
  let last: Omit<BoardShow, 'fromMs' | 'untilMs'> | null = null;
  for (const frame of frames) {
    signal.throwIfAborted();
    const picture = { file: `${frame.signature.replace(/[^\w-]/g, '.')}.png`, signature: frame.signature };
    if (!made.has(picture.file)) {
      const image = await pageImage(pages, frame.page, readPage);
      const { strokes } = boardAt(board, frame.fromMs);
      const temporary = path.join(dir, `${picture.file}.${randomUUID().slice(0, 8)}.tmp`);
      await fs.writeFile(temporary, await boardPicture(image, strokes, frame.layout));
      await fs.rename(temporary, path.join(dir, picture.file));
      made.add(picture.file);
    }
    // Before the first page and between stays on stage, a picture that is hidden there.
    show(last ?? picture, reached, frame.fromMs);
    show(picture, frame.fromMs, frame.untilMs);
    reached = frame.untilMs;
    last = picture;
  }
  return { dir, shows, onStage: stretches(frames) };
}

/** The shows over a stretch of the replay, cut to it and on its clock (from 0). */
export function showsIn(shows: readonly BoardShow[], fromMs: number, untilMs: number): BoardShow[] {
  return shows.flatMap((s) => {
    const from = Math.max(s.fromMs, fromMs);
    const until = Math.min(s.untilMs, untilMs);
    return until > from ? [{ ...s, fromMs: from - fromMs, untilMs: until - fromMs }] : [];
  });
}

/**
 * Writes the ffconcat list that plays the board's pictures over a stretch of the replay (from its time 0) into
 * the pictures' folder as `name`; after the last show its picture stays. Returns the list's path.
 */
export async function writeBoardList(
  pictures: BoardPictures,
  fromMs: number,
  untilMs: number,
  name: string,
): Promise<string> {
  const shows = showsIn(pictures.shows, fromMs, untilMs);
  const lines = ['ffconcat version 1.0'];
  let reached = 0;
  for (const s of shows) {
    // A stretch before the first show (never expected: the shows start at 0) shows that first picture.
    lines.push(`file ${s.file}`, `duration ${((s.untilMs - reached) / 1000).toFixed(3)}`);
    reached = s.untilMs;
  }
  const lastFile = shows.at(-1)?.file ?? pictures.shows.at(-1)?.file;
  // The demuxer reads the last entry's duration only when a file follows it.
  if (lastFile !== undefined) lines.push(`file ${lastFile}`);
  const list = path.join(pictures.dir, name);
  await fs.writeFile(list, `${lines.join('\n')}\n`);
  return list;
}

/**
 * One picture of the board, of the frame's size: the page with its ink letterboxed on white; beside the screen
 * share (`side`), the page in the right half ({@link SIDE_BOX}) and the left half black, where the composition
 * lays the screen share over it.
 */
export async function boardPicture(
  image: Buffer | null,
  strokes: readonly Stroke[],
  layout: BoardFrame['layout'],
): Promise<Buffer> {
  if (layout === 'board') return inkedPage(image, strokes, FRAME);
  const sharp = await loadSharp();
  const page = await inkedPage(image, strokes, SIDE_BOX);
  return sharp({ create: { ...FRAME, channels: 3, background: '#000000' } })
    .composite([{ input: page, left: FRAME.width - SIDE_BOX.width, top: 0 }])
    .png()
    .toBuffer();
}

/** The frames' stretches with their layout, touching ones of one layout joined. */
function stretches(frames: readonly BoardFrame[]): BoardStretch[] {
  const joined: BoardStretch[] = [];
  for (const { fromMs, untilMs, layout } of frames) {
    const last = joined.at(-1);
    if (last && last.untilMs === fromMs && last.layout === layout) last.untilMs = untilMs;
    else joined.push({ fromMs, untilMs, layout });
  }
  return joined;
}

async function pageImage(
  kept: Map<string, Buffer | null>,
  page: BoardPageRef,
  readPage: PageReader,
): Promise<Buffer | null> {
  const key = `${page.materialId}:${page.page}`;
  if (kept.has(key)) return kept.get(key) ?? null;
  const image = await readPage(page);
  kept.set(key, image);
  const oldest = kept.keys().next().value;
  if (kept.size > PAGES_KEPT && oldest !== undefined) kept.delete(oldest);
  return image;
}

/** Reads material pages from the materials' file store; whiteboard pages and gone materials have none. */
export function materialPageReader(db: Executor, files: FileStore): PageReader {
  return async ({ materialId, page }) => {
    if (materialId === WHITEBOARD_ID) return null;
    const material = await findMaterial(db, materialId);
    if (material === null || material.state !== 'ready') return null;
    const opened = await files.open(`${material.key}/${MATERIAL_FILES.page(page)}`);
    if (opened === null) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
}
