import { describe, expect, it } from 'vitest';
import { ManifestError, parseManifest } from './recording-manifest.ts';

const session = {
  type: 'session',
  t: 0,
  sessionKey: 'k1',
  classId: 3,
  teacherNickname: '파도선생',
  startedAt: '2026-11-25T01:00:00.000Z',
};
const lines = (...events: object[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';
/** A track's line as the media service writes it: its kind and file named after its id (`webcamVideo-1`). */
const trackLine = (t: number, track: string, codec: string) => ({
  type: 'track',
  t,
  track,
  kind: track.replace(/-\d+$/, ''),
  file: `${track}.webm`,
  codec,
});

describe('parseManifest', () => {
  it('reads tracks with their ends, pauses and the end', () => {
    const recording = parseManifest(
      lines(
        session,
        trackLine(10, 'webcamVideo-1', 'vp8'),
        trackLine(12, 'webcamAudio-1', 'opus'),
        { type: 'pause', t: 3_000 },
        { type: 'trackEnd', t: 3_000, track: 'webcamVideo-1' },
        { type: 'trackEnd', t: 3_000, track: 'webcamAudio-1' },
        { type: 'pause', t: 3_100 },
        { type: 'resume', t: 5_000 },
        trackLine(5_000, 'webcamVideo-2', 'vp8'),
        { type: 'end', t: 9_000 },
        { type: 'trackEnd', t: 9_500, track: 'webcamVideo-2' },
      ),
    );
    expect(recording).toEqual({
      teacherNickname: '파도선생',
      startedAt: '2026-11-25T01:00:00.000Z',
      tracks: [
        {
          track: 'webcamVideo-1',
          kind: 'webcamVideo',
          file: 'webcamVideo-1.webm',
          startMs: 10,
          endMs: 3_000,
        },
        {
          track: 'webcamAudio-1',
          kind: 'webcamAudio',
          file: 'webcamAudio-1.webm',
          startMs: 12,
          endMs: 3_000,
        },
        // Nothing after `end` counts: the file is cut at the end.
        {
          track: 'webcamVideo-2',
          kind: 'webcamVideo',
          file: 'webcamVideo-2.webm',
          startMs: 5_000,
          endMs: null,
        },
      ],
      pauses: [{ startMs: 3_000, endMs: 5_000 }],
      stalls: [],
      endMs: 9_000,
      skippedLines: 0,
    });
  });

  it('after a crash: no end, open tracks and a last line cut off', () => {
    const text =
      lines(session, {
        type: 'track',
        t: 0,
        track: 'screenShareVideo-1',
        kind: 'screenShareVideo',
        file: 'screen-1.webm',
        codec: 'vp8',
      }) + '{"type":"trackEnd","t":40';
    const recording = parseManifest(text);
    expect(recording.endMs).toBeNull();
    expect(recording.tracks[0]?.endMs).toBeNull();
    expect(recording.skippedLines).toBe(1);
  });

  it('skips lines that are not events (paths as file names, unknown types)', () => {
    const recording = parseManifest(
      lines(
        session,
        { type: 'track', t: 0, track: 'x', kind: 'webcamVideo', file: '../../etc/passwd', codec: 'vp8' },
        { type: 'mystery', t: 1 },
      ),
    );
    expect(recording.tracks).toEqual([]);
    expect(recording.skippedLines).toBe(2);
  });

  it('reads the stretches the media service could not write, one still open at the end', () => {
    const text = lines(
      session,
      { type: 'gap', t: 20_000, reason: 'ENOSPC' },
      { type: 'gapEnd', t: 45_000 },
      { type: 'gap', t: 55_000, reason: 'EIO' },
    );
    expect(parseManifest(text).stalls).toEqual([
      { startMs: 20_000, endMs: 45_000 },
      { startMs: 55_000, endMs: null },
    ]);
  });

  it('a manifest without its session line is not a recording', () => {
    expect(() => parseManifest('')).toThrow(ManifestError);
    expect(() => parseManifest(lines({ type: 'end', t: 5 }))).toThrow(ManifestError);
  });
});
