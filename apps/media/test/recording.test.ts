import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordingEvent } from '@sea/contract/recording';
import { killChild, startRecordingChild } from './recording-child-process.ts';
import { readManifest } from './read-manifest.ts';
import { hasFfprobe, probe } from './ffprobe.ts';
import { teachingServer } from './teaching-server.ts';
import { delay } from './test-media-server.ts';

const ffprobe = await hasFfprobe();
if (!ffprobe && process.env.CI === 'true') throw new Error('ffprobe is required when CI=true');
if (!ffprobe) console.warn('recording.test.ts: SKIPPED, no ffprobe on this machine');

const ALL = ['webcamVideo', 'webcamAudio', 'screenShareVideo', 'screenShareAudio'] as const;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-recording-'));
const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  if (!process.env.KEEP_RECORDINGS) fs.rmSync(tmp, { recursive: true, force: true });
});

type Stretch = { file: string; kind: string; startMs: number; endMs: number | null };
function stretches(events: RecordingEvent[]): Stretch[] {
  const out: Stretch[] = [];
  for (const event of events) {
    if (event.type === 'track')
      out.push({ file: event.file, kind: event.kind, startMs: event.t, endMs: null });
    if (event.type === 'trackEnd') {
      const stretch = out.find((s) => s.file === `${event.track}.webm`);
      if (stretch) stretch.endMs = event.t;
    }
  }
  return out;
}

describe.skipIf(!ffprobe)('recording the teacher', () => {
  it('writes each stream to its own WebM file, a new one for each stretch, with the manifest', async () => {
    // RTP timestamps from the wall clock, as a browser's capture clock: on a busy machine the teacher's timer
    // sends fewer frames, and with a frame counter for a clock its media fell 0.41-0.44 s behind 2.5 s stretches.
    const setup = await teachingServer(0, [...ALL], { recordingsDir: tmp, screen: true, wallClock: true });
    cleanups.push(() => setup.close());
    const dir = path.join(tmp, setup.room.sessionKey);
    expect(setup.room.recording).toBe(true);
    await delay(2_500);
    // The webcam is switched off for a second, then on again.
    setup.transport.closeProducer('webcamVideo');
    await delay(1_000);
    setup.transport.produce('webcamVideo', setup.midOf('webcamVideo'));
    await delay(2_500);
    // Written as it goes: before the end, the files are there and the manifest names them.
    const during = readManifest(dir);
    expect(during[0]).toMatchObject({ type: 'session', t: 0, classId: 1, teacherNickname: '파도선생' });
    for (const s of stretches(during)) expect(fs.existsSync(path.join(dir, s.file)), s.file).toBe(true);
    await setup.close();

    const events = readManifest(dir);
    expect(events.at(-1)?.type).toBe('end');
    const files = stretches(events);
    expect(files.map((f) => f.file).sort()).toEqual([
      'screenShareAudio-1.webm',
      'screenShareVideo-1.webm',
      'webcamAudio-1.webm',
      'webcamVideo-1.webm',
      'webcamVideo-2.webm',
    ]);
    // The first webcam file ends where the stream was switched off; the second starts about a second later.
    const [cam1, cam2] = files.filter((f) => f.kind === 'webcamVideo');
    expect((cam2?.startMs ?? 0) - (cam1?.endMs ?? 0)).toBeGreaterThan(800);
    for (const stretch of files) {
      const facts = await probe(path.join(dir, stretch.file));
      const video = stretch.kind.endsWith('Video');
      expect(facts.codec, stretch.file).toBe(video ? 'vp8' : 'opus');
      const lengthS = ((stretch.endMs ?? 0) - stretch.startMs) / 1000;
      expect(lengthS, stretch.file).toBeGreaterThan(1.5);
      // The header's duration (written at the end) and the packets both say how long it was published.
      const tolerance = Math.max(0.4, lengthS * 0.15);
      expect(Math.abs((facts.durationS ?? 0) - lengthS), stretch.file).toBeLessThan(tolerance);
      expect(Math.abs(facts.lastPacketS - (facts.durationS ?? 0)), stretch.file).toBeLessThan(0.1);
      if (video) {
        expect(facts.keyframeFirst, stretch.file).toBe(true);
        // The size of the picture (here the synthetic keyframe's 1280x720) is in the header.
        expect([facts.width, facts.height]).toEqual([1280, 720]);
      }
    }
  }, 60_000);

  it('records nothing when the room is opened without recording', async () => {
    const setup = await teachingServer(0, ['webcamAudio'], { recordingsDir: tmp, record: false });
    cleanups.push(() => setup.close());
    expect(setup.room.recording).toBe(false);
    await delay(500);
    await setup.close();
    expect(fs.existsSync(path.join(tmp, setup.room.sessionKey))).toBe(false);
  });

  it('a killed media service leaves files that can be read up to where it died', async () => {
    const dir = path.join(tmp, 'killed');
    const { child, key } = await startRecordingChild(dir, [], cleanups);
    await delay(3_000);
    await killChild(child);

    const events = readManifest(path.join(dir, key));
    expect(events.some((e) => e.type === 'end')).toBe(false);
    const files = stretches(events);
    expect(files.map((f) => f.kind).sort()).toEqual([...ALL].sort());
    for (const stretch of files) {
      expect(stretch.endMs).toBeNull();
      const facts = await probe(path.join(dir, key, stretch.file));
      expect(facts.codec).toBe(stretch.kind.endsWith('Video') ? 'vp8' : 'opus');
      // About 3 s were published; at most a flush interval (and the jitter buffer) is lost.
      expect(facts.lastPacketS, stretch.file).toBeGreaterThan(2);
      expect(facts.durationS, stretch.file).toBeNull();
    }
  }, 60_000);
});
