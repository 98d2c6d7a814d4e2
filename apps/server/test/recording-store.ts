import fs from 'node:fs/promises';
import path from 'node:path';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { completeKey, partKey } from '@sea/service-kit/storage/recording-objects';

/**
 * Puts the raw recording of a local folder into the store as a media node uploads it while the lecture runs:
 * each file in parts of `partBytes` (the manifest last), then `complete` unless told otherwise. `keep` cuts
 * each media file to its first share of parts, as a node that died mid-lecture leaves it.
 */
export async function uploadRecording(
  store: FileStore,
  mediaKey: string,
  dir: string,
  options: { partBytes?: number; complete?: boolean; keep?: number } = {},
): Promise<void> {
  const partBytes = options.partBytes ?? 16 * 1024;
  const names = (await fs.readdir(dir)).sort(
    (a, b) => Number(a === 'manifest.jsonl') - Number(b === 'manifest.jsonl'),
  );
  for (const name of names) {
    const bytes = await fs.readFile(path.join(dir, name));
    const media = name !== 'manifest.jsonl';
    const until =
      media && options.keep !== undefined ? Math.floor(bytes.length * options.keep) : bytes.length;
    for (let at = 0; at < until; at += partBytes) {
      await store.putBytes(partKey(mediaKey, name, at), bytes.subarray(at, Math.min(until, at + partBytes)));
    }
  }
  if (options.complete ?? true) await store.putBytes(completeKey(mediaKey), Buffer.alloc(0));
}
