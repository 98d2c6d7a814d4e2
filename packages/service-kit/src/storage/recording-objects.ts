import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { FileStore } from './file-store.ts';

/**
 * A raw recording in the object store (STORAGE=s3), as a media node uploads it while the lecture runs and the
 * replay job on any API server reads it back. Under the recordings' area, a session's folder
 * `{sessionKey}/` holds, for each file of the recording (see the contract's `recording.ts`):
 *
 * - `{file}/{offset}`: the file's bytes from `offset` (twelve digits) on, one object per upload round, in
 *   order; a node that dies loses only what it had not uploaded yet (a few seconds);
 * - `{file}/patches`: once the file is complete, the writes its muxer made at earlier positions (the header's
 *   duration), as JSON; a file without them reads as after a crash, as on the local disk;
 * - or `{file}` whole (an installation moved by `npm run storage:migrate`).
 *
 * `complete` is written last, once every file's last bytes are up: its absence means the node is still
 * uploading, or died.
 */
const UPLOAD_COMPLETE = 'complete';
/** The recordings' area of the bucket (its prefix), where both services find them. */
export const RECORDINGS_AREA = 'recordings';
const PATCHES = 'patches';
const OFFSET_DIGITS = 12;
const OFFSET = /^\d{12}$/;

export function partKey(sessionKey: string, file: string, offset: number): string {
  return `${sessionKey}/${file}/${String(offset).padStart(OFFSET_DIGITS, '0')}`;
}

export function patchesKey(sessionKey: string, file: string): string {
  return `${sessionKey}/${file}/${PATCHES}`;
}

export function completeKey(sessionKey: string): string {
  return `${sessionKey}/${UPLOAD_COMPLETE}`;
}

/** A write at a position of a finished file. */
export type StoredPatch = { position: number; bytes: Buffer };

const PatchesSchema = z.array(z.object({ position: z.number().int().min(0), bytes: z.base64() }));

export function encodePatches(patches: StoredPatch[]): Buffer {
  const json = patches.map((p) => ({ position: p.position, bytes: p.bytes.toString('base64') }));
  return Buffer.from(JSON.stringify(json));
}

/** What {@link downloadRecording} found of a session's recording. */
export type DownloadedRecording = {
  /** Whether the node finished uploading it (`complete` is there). */
  complete: boolean;
  /** Bytes of parts left out after a missing part (never expected: parts go up one after another). */
  leftOutBytes: number;
};

/** What the store holds of one file: whole (its size), or its parts and whether its patches are up. */
export type StoredFile = {
  whole: number | null;
  parts: { offset: number; key: string; size: number }[];
  patches: boolean;
};

/** What the store holds of a session's recording, by file name, and whether it is complete. */
export async function storedRecording(
  store: FileStore,
  sessionKey: string,
): Promise<{ complete: boolean; files: Map<string, StoredFile> }> {
  const files = new Map<string, StoredFile>();
  let complete = false;
  const pieces = (name: string) => {
    let found = files.get(name);
    if (!found) {
      found = { whole: null, parts: [], patches: false };
      files.set(name, found);
    }
    return found;
  };
  for (const { key, size } of await store.list(sessionKey)) {
    const [, name, last, ...rest] = key.split('/');
    if (name === undefined || rest.length > 0) continue;
    if (last === undefined) {
      if (name === UPLOAD_COMPLETE) complete = true;
      else pieces(name).whole = size;
    } else if (last === PATCHES) pieces(name).patches = true;
    else if (OFFSET.test(last)) pieces(name).parts.push({ offset: Number(last), key, size });
  }
  for (const file of files.values()) file.parts.sort((x, y) => x.offset - y.offset);
  return { complete, files };
}

/** Where a file's parts join up to from byte 0, without a hole. */
export function partsEnd(parts: StoredFile['parts']): number {
  let end = 0;
  for (const part of parts) {
    if (part.offset > end) break;
    end = Math.max(end, part.offset + part.size);
  }
  return end;
}

/**
 * Writes a session's recording from the store into the local folder `dir` (made if needed), each file as the
 * media node wrote it on its disk: its parts joined in order, then its patches. Parts that overlap (a round
 * uploaded again after a restart) are joined without repeating bytes; a missing part ends the file there.
 * Nothing in the store: no files and not complete.
 */
export function downloadRecording(
  store: FileStore,
  sessionKey: string,
  dir: string,
): Promise<DownloadedRecording> {
  return copyRecording(store, sessionKey, dir, { patches: true, append: false });
}

/**
 * Brings the local copy `dir` of a recording up to what the store holds: each file's parts from the copy's own
 * length on are appended (parts never change once up), so each call fetches only what was uploaded since the
 * last. With `patches`, a complete file's patches are written too (the copy is then what
 * {@link downloadRecording} writes); without, the copy reads as a file cut off, which it is while the lecture
 * runs (the replay made meanwhile).
 */
export function mirrorRecording(
  store: FileStore,
  sessionKey: string,
  dir: string,
  options: { patches: boolean },
): Promise<DownloadedRecording> {
  return copyRecording(store, sessionKey, dir, { ...options, append: true });
}

async function copyRecording(
  store: FileStore,
  sessionKey: string,
  dir: string,
  options: { patches: boolean; append: boolean },
): Promise<DownloadedRecording> {
  const { complete, files } = await storedRecording(store, sessionKey);
  await mkdir(dir, { recursive: true });
  let leftOutBytes = 0;
  for (const [name, found] of files) {
    const to = path.join(dir, name);
    if (found.whole !== null) {
      if (options.patches) await store.copyOut(`${sessionKey}/${name}`, to);
      continue;
    }
    leftOutBytes += await joinParts(store, found.parts, to, options.append);
    if (options.patches && found.patches) await applyPatches(store, patchesKey(sessionKey, name), to);
  }
  return { complete, leftOutBytes };
}

/**
 * Writes the parts one after another into `to` (with `append`, after the bytes it holds); the bytes of parts
 * after a hole are left out (returned).
 */
async function joinParts(
  store: FileStore,
  parts: StoredFile['parts'],
  to: string,
  append = false,
): Promise<number> {
  const handle = await open(to, append ? 'a' : 'w');
  let end = append ? (await handle.stat()).size : 0;
  let leftOut = 0;
  try {
    for (const part of parts) {
      if (part.offset > end) {
        leftOut += part.size;
        continue;
      }
      if (part.offset + part.size <= end) continue;
      const opened = await store.open(part.key, { start: end - part.offset, end: part.size - 1 });
      if (!opened) throw new Error(`${part.key} went away while it was read`);
      for await (const chunk of opened.stream) await handle.write(chunk as Buffer);
      end = part.offset + part.size;
    }
  } finally {
    await handle.close();
  }
  return leftOut;
}

async function applyPatches(store: FileStore, key: string, to: string): Promise<void> {
  const bytes = await store.read(key);
  if (!bytes) return;
  let parsed;
  try {
    parsed = PatchesSchema.safeParse(JSON.parse(bytes.toString('utf8')));
  } catch {
    return;
  }
  // Unreadable patches (never expected): the file stays as after a crash, which the replay reads.
  if (!parsed.success) return;
  const handle = await open(to, 'r+');
  try {
    const { size } = await handle.stat();
    for (const patch of parsed.data) {
      const patchBytes = Buffer.from(patch.bytes, 'base64');
      // A patch past the bytes that arrived would leave a hole of zeros: the file stays as after a crash.
      if (patch.position + patchBytes.length <= size) {
        await handle.write(patchBytes, 0, patchBytes.length, patch.position);
      }
    }
  } finally {
    await handle.close();
  }
}
