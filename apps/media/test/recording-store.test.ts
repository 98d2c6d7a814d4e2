import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDING_MANIFEST, type RecordingEvent } from '@sea/contract/recording';
import { downloadRecording, RECORDINGS_AREA } from '@sea/service-kit/storage/recording-objects';
import { S3FileStore, s3Client } from '@sea/service-kit/storage/s3-file-store';
import { objectStoreAvailable, type ObjectStore, startObjectStore } from '../../../harness/object-store.ts';
import { recordingCounts } from '../src/recording/recording-counts.ts';
import { leftRecordings, openUploads, uploadLeftovers } from '../src/recording/recording-upload.ts';
import { hasFfprobe, probe } from './ffprobe.ts';
import { killChild, startRecordingChild } from './recording-child-process.ts';
import { readManifest } from './read-manifest.ts';
import { teachingServer } from './teaching-server.ts';
import { delay, until } from './test-media-server.ts';

// A media node with STORAGE=s3 uploads its recording while the lecture runs (recording-upload.ts), into a real
// object store (OpenStack Swift with s3api, started here on loopback).
const available = (await objectStoreAvailable()) && (await hasFfprobe());
if (!available && process.env.CI === 'true')
  throw new Error('OpenStack Swift and ffprobe are required when CI=true');
if (!available) console.warn('recording-store.test.ts: SKIPPED, no OpenStack Swift or no ffprobe');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-recording-store-'));
let swift: ObjectStore;
let store: S3FileStore;
const cleanups: (() => unknown)[] = [];

beforeAll(async () => {
  if (!available) return;
  swift = await startObjectStore();
  store = new S3FileStore(s3Client(swift.storage), swift.bucket, RECORDINGS_AREA);
}, 180_000);
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  await swift?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function files(events: RecordingEvent[]): { file: string; kind: string }[] {
  return events.flatMap((e) => (e.type === 'track' ? [{ file: e.file, kind: e.kind }] : []));
}

describe.runIf(available)('a recording that goes up into the object store as it is made', () => {
  it('goes on through a store down for 10 s, and comes back whole from the store once the lecture ends', async () => {
    const setup = await teachingServer(0, ['webcamVideo', 'webcamAudio'], {
      recordingsDir: tmp,
      recordingStore: store,
    });
    cleanups.push(() => setup.close());
    const key = setup.room.sessionKey;
    // The first round goes up within a few seconds of the start, while the lecture runs.
    await until(
      async () => (await store.list(key)).some((f) => f.key.startsWith(`${key}/webcamVideo-1.webm/`)),
      15_000,
      'the first part in the store',
    );
    const failures = recordingCounts.uploadFailures;
    await swift.down();
    await delay(10_000);
    // What /metrics tells meanwhile: rounds failing, and the bytes waiting on the node's disk.
    expect(recordingCounts.uploadFailures).toBeGreaterThan(failures);
    expect([...openUploads].reduce((sum, upload) => sum + upload.pendingBytes, 0)).toBeGreaterThan(0);
    await swift.up();
    await delay(2_000);
    await setup.close();

    // Everything went up, so the node's copy is gone; the store's is whole, patches and all.
    expect(fs.existsSync(path.join(tmp, key))).toBe(false);
    expect(openUploads.size).toBe(0);
    const back = path.join(tmp, 'back');
    const found = await downloadRecording(store, key, back);
    expect(found).toMatchObject({ complete: true, leftOutBytes: 0 });
    const events = readManifest(back);
    const end = events.at(-1);
    expect(end?.type).toBe('end');
    const lengthS = (end?.t ?? 0) / 1000;
    expect(lengthS).toBeGreaterThan(14);
    expect(
      files(events)
        .map((f) => f.file)
        .sort(),
    ).toEqual(['webcamAudio-1.webm', 'webcamVideo-1.webm']);
    for (const { file } of files(events)) {
      const facts = await probe(path.join(back, file));
      // The whole lecture, the store's outage included, and the header's duration written at the end (the
      // synthetic teacher's clock may fall behind the wall clock on a busy machine by up to about a tenth).
      expect(facts.lastPacketS, file).toBeGreaterThan(lengthS * 0.85);
      expect(Math.abs((facts.durationS ?? 0) - facts.lastPacketS), file).toBeLessThan(0.1);
    }
  }, 90_000);

  it('a node killed mid-lecture leaves in the store the parts it had uploaded, and the rest once started again', async () => {
    const dir = path.join(tmp, 'killed');
    const { child, key } = await startRecordingChild(dir, [JSON.stringify(swift.storage)], cleanups);
    // A round every 5 s: killed after the first, before the second.
    await until(async () => (await store.list(key)).length > 0, 15_000, 'the first round');
    await delay(2_000);
    await killChild(child);

    const back = path.join(tmp, 'killed-back');
    const found = await downloadRecording(store, key, back);
    expect(found).toMatchObject({ complete: false, leftOutBytes: 0 });
    const events = readManifest(back);
    expect(events.some((e) => e.type === 'end')).toBe(false);
    const stretches = files(events);
    expect(stretches.map((f) => f.kind).sort()).toEqual(
      ['screenShareAudio', 'screenShareVideo', 'webcamAudio', 'webcamVideo'].sort(),
    );
    for (const { file } of stretches) {
      // What the store holds is what the node's disk held, up to the last round.
      const stored = fs.readFileSync(path.join(back, file));
      const written = fs.readFileSync(path.join(dir, key, file));
      expect(stored.length, file).toBeGreaterThan(0);
      expect(written.subarray(0, stored.length).equals(stored), file).toBe(true);
      const facts = await probe(path.join(back, file));
      expect(facts.lastPacketS, file).toBeGreaterThan(2);
    }

    // Started again, the node uploads what its disk kept beyond the store's parts, and marks it complete.
    const left = await leftRecordings(dir);
    expect(left).toEqual([key]);
    const onDisk = new Map(
      [...stretches.map((s) => s.file), RECORDING_MANIFEST].map((file) => [
        file,
        fs.readFileSync(path.join(dir, key, file)),
      ]),
    );
    await uploadLeftovers(store, dir, left);
    expect(fs.existsSync(path.join(dir, key))).toBe(false);
    const whole = path.join(tmp, 'killed-whole');
    expect(await downloadRecording(store, key, whole)).toMatchObject({ complete: true, leftOutBytes: 0 });
    for (const [file, bytes] of onDisk) {
      expect(fs.readFileSync(path.join(whole, file)).equals(bytes), file).toBe(true);
    }
  }, 90_000);
});
