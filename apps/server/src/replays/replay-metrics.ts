import { Gauge, type Registry } from 'prom-client';
import { diskSpace, folderBytes } from '../storage/disk-space.ts';

/**
 * The disk metrics of the replays, read at each scrape: the space left (and the size) of the disks of the raw
 * recordings and of the replays, and how much the raw recordings kept take (a raw recording stays until its
 * replay is made and checked, so it grows while replays wait).
 */
export function replayMetrics(registry: Registry, folders: { recordings: string; replays: string }): void {
  const read = async (set: (folder: string, free: number, total: number) => void) => {
    for (const [folder, dir] of Object.entries(folders)) {
      const space = await diskSpace(dir);
      if (space) set(folder, space.freeBytes, space.totalBytes);
    }
  };
  new Gauge({
    name: 'storage_free_bytes',
    help: 'Space left on the disk of a folder of the API server (recordings, replays), in bytes',
    labelNames: ['folder'],
    registers: [registry],
    async collect() {
      this.reset();
      await read((folder, free) => this.set({ folder }, free));
    },
  });
  new Gauge({
    name: 'storage_size_bytes',
    help: 'Size of the disk of a folder of the API server (recordings, replays), in bytes',
    labelNames: ['folder'],
    registers: [registry],
    async collect() {
      this.reset();
      await read((folder, _free, total) => this.set({ folder }, total));
    },
  });
  new Gauge({
    name: 'raw_recordings_bytes',
    help: 'Bytes the raw recordings kept in RECORDINGS_DIR take (kept until their replay is made and checked)',
    registers: [registry],
    async collect() {
      this.set(await folderBytes(folders.recordings));
    },
  });
}
