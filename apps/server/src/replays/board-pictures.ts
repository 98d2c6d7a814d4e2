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

/** The board's pictures, made: the ffconcat list that plays them from replay time 0, and where it is on stage. */
export type BoardPictures = { list: string; onStage: BoardStretch[] };

/** Reads a page's image (null: a whiteboard page, or a material gone since: drawn on white). */
export type PageReader = (page: BoardPageRef) => Promise<Buffer | null>;

/**
 * Renders each different look of the board once (`materials/inked-page.ts`, the replay's frame size, PNG;
 * {@link boardPicture}) into `dir`, and writes the ffconcat list that shows them from replay time 0, each for its stretch; where nothing
 * is on stage the list holds the last picture on (the composition hides the board there).
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
  const files = new Map<string, string>();
  const pages = new Map<string, Buffer | null>();
  const lines = ['ffconcat version 1.0'];
  const show = (file: string, ms: number) => {
    if (ms > 0) lines.push(`file ${file}`, `duration ${(ms / 1000).toFixed(3)}`);
  };
  let reached = 0;
  let last = '';
  for (const frame of frames) {
    signal.throwIfAborted();
    let file = files.get(frame.signature);
    if (file === undefined) {
      file = `board-${files.size + 1}.png`;
      const image = await pageImage(pages, frame.page, readPage);
      const { strokes } = boardAt(board, frame.fromMs);
      await fs.writeFile(path.join(dir, file), await boardPicture(image, strokes, frame.layout));
      files.set(frame.signature, file);
    }
    // Before the first page and between stays on stage, a picture that is hidden there.
    show(last || file, frame.fromMs - reached);
    show(file, frame.untilMs - frame.fromMs);
    reached = frame.untilMs;
    last = file;
  }
  // The demuxer reads the last entry's duration only when a file follows it.
  lines.push(`file ${last}`);
  const list = path.join(dir, 'board.ffconcat');
  await fs.writeFile(list, `${lines.join('\n')}\n`);
  return { list, onStage: stretches(frames) };
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
