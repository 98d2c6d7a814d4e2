import path from 'node:path';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import type { LocalFileStore } from '@sea/service-kit/storage/local-file-store';
import { s3Checksum } from '@sea/service-kit/storage/s3-checksum';

/** One area to copy: its local folder's store, the bucket's store, and which of its keys are files to keep. */
export type MigrationArea = {
  name: string;
  from: LocalFileStore;
  to: FileStore;
  /** False for what the folder holds besides kept files (a replay's unfinished work folder). */
  keeps: (key: string) => boolean;
};

/** How a migration went: files copied now, files already there and checked, and the bytes of both. */
export type MigrationTally = { copied: number; present: number; bytes: number };

/** Progress lines, one per file and one per area. */
export type MigrationLog = (line: string) => void;

/**
 * Copies every kept file of each area's local folder into the bucket and checks each copy: its size and its
 * checksum (the store's ETag against the one computed from the local file with the same part size). A file
 * already in the bucket with the right size and checksum is not copied again, so a second run copies nothing
 * and an interrupted run goes on where it stopped (a put is whole or absent). The local files are left as
 * they are; the database's keys are the same on both drivers. Throws when a copy does not match.
 */
export async function migrateFiles(
  areas: MigrationArea[],
  partBytes: number,
  log: MigrationLog,
): Promise<MigrationTally> {
  const tally: MigrationTally = { copied: 0, present: 0, bytes: 0 };
  for (const area of areas) {
    const files = (await area.from.list('')).filter((file) => area.keeps(file.key));
    files.sort((a, b) => a.key.localeCompare(b.key));
    const total = files.reduce((sum, file) => sum + file.size, 0);
    log(`${area.name}: ${files.length}개 파일, ${total} bytes`);
    let done = 0;
    for (const file of files) {
      done += 1;
      const local = path.join(area.from.dir, ...file.key.split('/'));
      const expected = await s3Checksum(local, partBytes);
      const before = await area.to.stat(file.key);
      const label = `${area.name} ${done}/${files.length} ${file.key}`;
      if (before?.size === file.size && before.checksum === expected) {
        tally.present += 1;
        tally.bytes += file.size;
        log(`${label}: 이미 옮겨져 있어요 (확인함)`);
        continue;
      }
      await area.to.put(file.key, local);
      const after = await area.to.stat(file.key);
      if (after?.size !== file.size || after.checksum !== expected) {
        throw new Error(
          `${area.name}/${file.key}: the copy does not match (size ${after?.size ?? 'none'} of ${file.size}, ` +
            `checksum ${after?.checksum ?? 'none'} of ${expected})`,
        );
      }
      tally.copied += 1;
      tally.bytes += file.size;
      log(`${label}: 옮겼어요 (${file.size} bytes, 확인함)`);
    }
  }
  return tally;
}
