import fs from 'node:fs/promises';
import path from 'node:path';

/** The space of the filesystem a folder is on, in bytes: what an unprivileged process may still write. */
export type DiskSpace = { freeBytes: number; totalBytes: number };

/**
 * The space of the filesystem that holds `dir` (or, while it does not exist yet, its nearest existing parent,
 * where it will be made); null when nothing of the path can be read.
 */
export async function diskSpace(dir: string): Promise<DiskSpace | null> {
  let at = path.resolve(dir);
  for (let depth = 0; depth < 64; depth += 1) {
    try {
      const stats = await fs.statfs(at);
      return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
    } catch (error) {
      const parent = path.dirname(at);
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === at) return null;
      at = parent;
    }
  }
  return null;
}

/** The bytes of the files under `dir` (0 when it does not exist); a file removed meanwhile counts nothing. */
export async function folderBytes(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(dir, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let total = 0;
  for (const name of names) {
    const stats = await fs.lstat(path.join(dir, name)).catch(() => null);
    if (stats?.isFile()) total += stats.size;
  }
  return total;
}

/** Bytes as a person reads them, in Korean text: '1.4 GB', '312 MB', '20 KB'. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = value >= 10 || unit === 0 ? 0 : 1;
  return `${value.toFixed(digits)} ${units[unit]}`;
}
/** The folders whose disks the operator watches: raw recordings and replays. */
export type WatchedFolders = { recordings: string; replays: string };

/** The space left on each folder's disk, as `/ready` tells it (null: unreadable). */
export async function folderSpace(
  folders: WatchedFolders,
): Promise<Record<string, { free_bytes: number; total_bytes: number } | null>> {
  const answer: Record<string, { free_bytes: number; total_bytes: number } | null> = {};
  for (const [name, dir] of Object.entries(folders)) {
    const space = await diskSpace(dir);
    answer[name] = space ? { free_bytes: space.freeBytes, total_bytes: space.totalBytes } : null;
  }
  return answer;
}
