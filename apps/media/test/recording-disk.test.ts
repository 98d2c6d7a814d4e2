import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { RECORDING_MANIFEST, type RecordingEvent, RecordingEventSchema } from '@sea/contract/recording';
import { RecordingFiles, type WriteFailure } from '../src/recording/recording-files.ts';
import { hasFfprobe, probe } from './ffprobe.ts';
import { skipNotice } from './skip-notice.ts';
import { canMount, smallDisk } from './small-disk.ts';
import { delay, until } from './test-media-server.ts';

if (!canMount && process.env.CI === 'true')
  throw new Error('recording-disk.test.ts must run as root when CI=true');
if (!canMount) skipNotice('recording-disk.test.ts: SKIPPED, mounting a small disk needs root');
const ffprobe = await hasFfprobe();

const CHILD = fileURLToPath(new URL('./recording-disk-child.ts', import.meta.url));
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function manifest(dir: string): RecordingEvent[] {
  const text = fs.readFileSync(path.join(dir, RECORDING_MANIFEST), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => RecordingEventSchema.parse(JSON.parse(line)));
}

/** A media service recording a synthetic teacher on `dir`, in its own process (its memory is measured). */
function recordingChild(dir: string) {
  const child = spawn(process.execPath, ['--expose-gc', CHILD, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  cleanups.push(() => child.kill('SIGKILL'));
  const lines: { at: number; line: Record<string, unknown> }[] = [];
  let output = '';
  let rest = '';
  child.stdout.on('data', (chunk: Buffer) => {
    rest += chunk.toString();
    const parts = rest.split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) {
      output += `${part}\n`;
      if (part.startsWith('{"'))
        lines.push({ at: Date.now(), line: JSON.parse(part) as Record<string, unknown> });
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  type State = { at: number; stalled?: boolean; metrics: Record<string, number> };
  const states = (): State[] =>
    lines.flatMap(({ at, line }) =>
      line.state
        ? [{ at, ...(line.state as { stalled?: boolean }), metrics: line.metrics as State['metrics'] }]
        : [],
    );
  const samples = (since: number) =>
    lines.flatMap(({ at, line }) =>
      at >= since && typeof line.rss === 'number'
        ? [line as { rss: number; kept: number; held: number }]
        : [],
    );
  return { child, lines, states, samples, output: () => output };
}

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

  it('a lecture whose disk fills: the teacher is told within 2 s, memory stays bounded, recording resumes', async () => {
    const disk = smallDisk(48);
    cleanups.push(() => disk.close());
    const media = recordingChild(disk.dir);
    await until(
      () => media.lines.some(({ line }) => line.sessionKey) || media.child.exitCode !== null,
      30_000,
    );
    const key = media.lines.find(({ line }) => line.sessionKey)?.line.sessionKey;
    if (typeof key !== 'string') throw new Error(media.output());
    const dir = path.join(disk.dir, key);
    await delay(3_000);
    expect(media.states().at(-1)?.stalled).toBeUndefined();

    disk.fill();
    const full = Date.now();
    await until(() => media.states().some((s) => s.stalled), 5_000);
    const told = media.states().find((s) => s.stalled);
    expect((told?.at ?? Infinity) - full).toBeLessThan(2_000);
    // The operator's metrics say it too.
    expect(told?.metrics).toMatchObject({
      media_recordings_stalled: 1,
      media_recording_write_failures_total: 1,
    });

    // The lecture runs on for 20 s with the disk full: the bytes held for it stay under 4 s of the streams,
    // and the process does not grow (the unfixed recorder held every byte, growing without end).
    const stalledAt = Date.now();
    await delay(20_000);
    const samples = media.samples(stalledAt);
    expect(samples.length).toBeGreaterThan(30);
    const maxHeld = Math.max(...samples.map((s) => s.held));
    expect(maxHeld).toBeLessThan(256 * 1024);
    // What the process keeps after a collection grows by less than 8 MB, and its resident size by less than 64.
    const grew = (values: number[]) => Math.max(...values.slice(-10)) - Math.min(...values.slice(0, 10));
    const kept = grew(samples.map((s) => s.kept));
    const rss = grew(samples.map((s) => s.rss));
    const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
    console.log(`recording-disk: held at most ${maxHeld} bytes; kept grew ${mb(kept)} MB, rss ${mb(rss)} MB`);
    expect(kept).toBeLessThan(8 * 1024 * 1024);
    expect(rss).toBeLessThan(64 * 1024 * 1024);

    disk.free();
    const freed = Date.now();
    await until(() => media.states().some((s) => s.at >= freed && !s.stalled), 5_000);
    expect(media.states().at(-1)?.metrics).toMatchObject({ media_recordings_stalled: 0 });
    await delay(2_500);
    media.child.kill('SIGTERM');
    await new Promise((resolve) => media.child.once('exit', resolve));

    const events = manifest(dir);
    const gap = events.findIndex((e) => e.type === 'gap');
    const gapEnd = events.findIndex((e) => e.type === 'gapEnd');
    expect(events[gap]).toMatchObject({ type: 'gap', reason: 'ENOSPC' });
    expect(gapEnd).toBeGreaterThan(gap);
    const gapMs = (events[gapEnd]?.t ?? 0) - (events[gap]?.t ?? 0);
    expect(gapMs).toBeGreaterThan(19_000);
    // Separate stretches: each stream's file ended at the gap, and a new one began after it.
    const before = events.slice(0, gap).filter((e) => e.type === 'track');
    const after = events.slice(gapEnd).filter((e) => e.type === 'track');
    expect(before.map((e) => e.kind).sort()).toEqual(after.map((e) => e.kind).sort());
    expect(after).toHaveLength(4);
    expect(events.at(-1)?.type).toBe('end');
    if (ffprobe) {
      for (const track of after) {
        const facts = await probe(path.join(dir, track.file));
        expect(facts.lastPacketS, track.file).toBeGreaterThan(1);
      }
    }
  }, 90_000);
});
