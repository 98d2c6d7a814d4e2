import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RECORDING_MANIFEST } from '@sea/contract/recording';
import { RecordingFiles, type WriteFailure } from '../src/recording/recording-files.ts';
import { skipNotice } from './skip-notice.ts';
import { canMount, smallDisk } from './small-disk.ts';

if (!canMount && process.env.CI === 'true')
  throw new Error('recording-disk.test.ts must run as root when CI=true');
if (!canMount) skipNotice('recording-disk.test.ts: SKIPPED, mounting a small disk needs root');

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.skipIf(!canMount)('recording on a disk that fills', () => {
  it('a write the disk refuses stalls the files, keeps manifest lines whole, and goes on once it can', async () => {
    const disk = smallDisk(16);
    cleanups.push(() => disk.close());
    const failures: WriteFailure[] = [];
    let recovered = 0;
    const files = new RecordingFiles(path.join(disk.dir, 's'), RECORDING_MANIFEST, {
      failed: (failure) => failures.push(failure),
      recovered: () => (recovered += 1),
    });
    files.append(RECORDING_MANIFEST, Buffer.from('{"a":1}\n'));
    files.append('v-1.webm', Buffer.alloc(64 * 1024, 1));
    await files.flush();
    expect(disk.fill()).toBeGreaterThan(10 * 1024 * 1024);
    files.append(RECORDING_MANIFEST, Buffer.from('{"a":2}\n'));
    files.append('v-1.webm', Buffer.alloc(64 * 1024, 2));
    await files.flush();
    expect(failures.map((f) => f.reason)).toEqual(['ENOSPC']);
    expect(files.unwritable).toBe(true);
    // The media file's later bytes are dropped; only the manifest's lines wait, and never go half-written.
    files.append('v-1.webm', Buffer.alloc(1000, 3));
    files.append(RECORDING_MANIFEST, Buffer.from(`{"a":3,"pad":"${'x'.repeat(20_000)}"}\n`));
    expect(files.pendingBytes).toBe(8 + 20_017);
    await files.flush();
    expect(recovered).toBe(0);
    disk.free();
    await files.flush();
    expect(recovered).toBe(1);
    expect(files.unwritable).toBe(false);
    files.append('v-1.webm', Buffer.alloc(1000, 4));
    files.append('v-2.webm', Buffer.alloc(1000, 4));
    await files.flush();
    const text = fs.readFileSync(path.join(disk.dir, 's', RECORDING_MANIFEST), 'utf8');
    expect(text.split('\n').map((line) => line.slice(0, 7))).toEqual(['{"a":1}', '{"a":2}', '{"a":3,', '']);
    // The file given up keeps what it had; a new one is written.
    expect(fs.statSync(path.join(disk.dir, 's', 'v-1.webm')).size).toBe(64 * 1024);
    expect(fs.statSync(path.join(disk.dir, 's', 'v-2.webm')).size).toBe(1000);
  });
});
