import { describe, expect, it } from 'vitest';
import { type MediaProbe, planComposition, withBoard } from './composition-plan.ts';
import { audioArgs, audioGraph, filterValue, fit, videoArgs, videoGraph } from './ffmpeg-args.ts';
import { windowPlan } from './replay-windows.ts';
import type { Recording } from './recording-manifest.ts';

const recording = (tracks: Recording['tracks']): Recording => ({
  teacherNickname: '파도선생',
  startedAt: '2026-11-25T01:00:00.000Z',
  tracks,
  pauses: [],
  stalls: [],
  endMs: 10_000,
  skippedLines: 0,
});
const probe = (endMs: number, width: number | null = null, height: number | null = null): MediaProbe => ({
  endMs,
  width,
  height,
});

/** A 10 s recording of a 1080p screen share and a 720p webcam, planned (the board tests put pages over it). */
const screenAndWebcam = () =>
  planComposition(
    recording([
      { track: 's', kind: 'screenShareVideo', file: 's.webm', startMs: 0, endMs: 10_000 },
      { track: 'w', kind: 'webcamVideo', file: 'w.webm', startMs: 0, endMs: 10_000 },
    ]),
    new Map([
      ['s.webm', probe(10_000, 1920, 1080)],
      ['w.webm', probe(10_000, 1280, 720)],
    ]),
  );

describe('ffmpeg arguments', () => {
  it('escapes a value for a filter option inside a graph', () => {
    expect(filterValue("/a b/it's: [x];y,z\\")).toBe("/a b/it\\\\\\'s\\\\: \\[x\\]\\;y\\,z\\\\\\\\");
  });

  it('fits a picture into a box, keeping its aspect, in even sizes', () => {
    expect(fit(1920, 1080, 1280, 720)).toEqual({ width: 1280, height: 720 });
    expect(fit(1080, 1920, 1280, 720)).toEqual({ width: 406, height: 720 });
    expect(fit(2560, 1080, 1280, 720)).toEqual({ width: 1280, height: 540 });
    expect(fit(640, 480, 320, 720)).toEqual({ width: 320, height: 240 });
    expect(fit(null, null, 1280, 720)).toEqual({ width: 1280, height: 720 });
  });

  it('draws the name only while the picture is black, and the corner only over the screen', () => {
    const plan = planComposition(
      recording([
        { track: 's', kind: 'screenShareVideo', file: 's.webm', startMs: 2_000, endMs: 6_000 },
        { track: 'w', kind: 'webcamVideo', file: 'w.webm', startMs: 0, endMs: 4_000 },
        { track: 'm', kind: 'webcamAudio', file: 'm.webm', startMs: 0, endMs: 10_000 },
        { track: 'a', kind: 'screenShareAudio', file: 'a.webm', startMs: 2_000, endMs: 6_000 },
      ]),
      new Map([
        ['s.webm', probe(4_000, 1920, 1080)],
        ['w.webm', probe(4_000, 1280, 720)],
        ['m.webm', probe(10_000)],
        ['a.webm', probe(4_000)],
      ]),
    );
    const graph = videoGraph(plan, '/fonts/Noto Sans.ttc', '/work/name.txt');
    expect(graph).toContain('fontfile=/fonts/Noto Sans.ttc:textfile=/work/name.txt:expansion=none');
    expect(graph).toContain("enable='between(t,6.000,10.000)'");
    // The picture's inputs: screen 0, webcam 1; the sound's: microphone 0, system audio 1.
    expect(graph).toContain('[0:v]trim=end=4.000,setpts=PTS+2.000/TB,scale=1280:720:flags=bilinear[s0]');
    expect(graph).toContain('[1:v]trim=end=4.000,setpts=PTS+0.000/TB,split[w1a][w1c]');
    expect(graph).toContain("overlay=x=0:y=0:eof_action=pass:enable='between(t,0.000,2.000)'");
    expect(graph).toContain("overlay=x=936:y=516:eof_action=pass:enable='between(t,2.000,4.000)'");
    const sound = audioGraph(plan);
    expect(sound).toContain('apad=whole_len=480000,atrim=end_sample=480000[a0]');
    expect(sound).toContain('[a0][a1]amix=inputs=2:duration=longest:dropout_transition=0,volume=2[audio]');
    const options = { inputDir: '/rec', nameFile: '/n', fontFile: null, output: '/out.mp4' };
    const args = videoArgs(plan, options);
    expect(args.filter((a) => a.startsWith('/rec/'))).toEqual(['/rec/s.webm', '/rec/w.webm']);
    expect(audioArgs(plan, options).filter((a) => a.startsWith('/rec/'))).toEqual([
      '/rec/m.webm',
      '/rec/a.webm',
    ]);
    expect(args.join(' ')).toContain('-t 10.000 -c:v libx264');
    expect(args.join(' ')).not.toContain('drawtext');
  });

  it('cuts a window out of the files: seeks each to its stretch and trims it exactly', () => {
    const plan = planComposition(
      recording([
        { track: 's', kind: 'screenShareVideo', file: 's.webm', startMs: 2_000, endMs: 6_000 },
        { track: 'm', kind: 'webcamAudio', file: 'm.webm', startMs: 0, endMs: 10_000 },
      ]),
      new Map([
        ['s.webm', probe(4_000, 1920, 1080)],
        ['m.webm', probe(10_000)],
      ]),
    );
    const window = windowPlan(plan, 3_200, 6_400);
    expect(window.durationMs).toBe(3_200);
    // The screen plays from 1.2 s of its media at the window's 0 to its end at the window's 2.8 s.
    expect(window.screens).toMatchObject([{ atMs: 0, untilMs: 2_800, skipMs: 1_200 }]);
    expect(window.layouts).toEqual([
      { fromMs: 0, untilMs: 2_800, layout: 'screen' },
      { fromMs: 2_800, untilMs: 3_200, layout: 'black' },
    ]);
    expect(videoGraph(window, null, '/n')).toContain('[0:v]trim=start=1.200:end=4.000,setpts=PTS-1.200/TB,');
    expect(audioGraph(window)).toContain('[0:a]atrim=start=3.200:end=6.400,asetpts=PTS-3.200/TB,');
    const args = videoArgs(window, { inputDir: '/rec', nameFile: '/n', fontFile: null, output: '/w.mp4' });
    expect(args.join(' ')).toContain('-ss 1.200 -i /rec/s.webm');
    expect(args.join(' ')).toContain('-t 3.200 -c:v libx264');
  });

  it('without any audio the sound is silence of the replay’s length', () => {
    const plan = planComposition(
      recording([{ track: 'w', kind: 'webcamVideo', file: 'w.webm', startMs: 0, endMs: 10_000 }]),
      new Map([['w.webm', probe(10_000, 640, 480)]]),
    );
    const graph = videoGraph(plan, null, '/n');
    expect(audioGraph(plan)).toContain('anullsrc=r=48000:cl=stereo,atrim=end_sample=480000[audio]');
    expect(graph).toContain('[0:v]trim=end=10.000');
    expect(graph).toContain('scale=960:720:flags=bilinear');
    expect(graph).not.toContain('split');
  });

  it('puts the board over the screen where it is on stage, the webcam in its corner', () => {
    const planned = screenAndWebcam();
    const plan = withBoard(planned, [{ fromMs: 3_000, untilMs: 6_000, layout: 'board' }]);
    expect(plan.layouts.map((s) => [s.fromMs, s.untilMs, s.layout])).toEqual([
      [0, 3_000, 'screen+webcam'],
      [3_000, 6_000, 'board+webcam'],
      [6_000, 10_000, 'screen+webcam'],
    ]);
    const graph = videoGraph(plan, null, '/work/name.txt');
    // Inputs 0 and 1 are the files; the board's pictures come last, above the screen, below the webcam.
    expect(graph).toContain(
      "[2:v]null[board];\n[v1][board]overlay=x=0:y=0:eof_action=pass:enable='between(t,3.000,6.000)'",
    );
    expect(graph).toMatch(
      /enable='between\(t,0\.000,3\.000\)\+between\(t,3\.000,6\.000\)\+between\(t,6\.000,10\.000\)'/,
    );
    const args = videoArgs(plan, {
      inputDir: '/rec',
      nameFile: 'n',
      fontFile: null,
      output: 'o.mp4',
      boardList: '/w/board.ffconcat',
    });
    expect(args.join(' ')).toContain('-f concat -i /w/board.ffconcat -filter_complex');
    expect(() =>
      videoArgs(plan, { inputDir: '/rec', nameFile: 'n', fontFile: null, output: 'o.mp4' }),
    ).toThrow();
    // The screen is scaled once for the whole picture; beside no page, nothing splits it.
    expect(graph).toContain('[0:v]trim=end=10.000,setpts=PTS+0.000/TB,scale=1280:720:flags=bilinear[s0]');
    expect(graph).not.toContain('[s0h]');
  });

  it('beside the page, the screen share takes the left half over the board, the webcam its corner', () => {
    const planned = screenAndWebcam();
    const plan = withBoard(planned, [
      { fromMs: 2_000, untilMs: 5_000, layout: 'side' },
      { fromMs: 5_000, untilMs: 7_000, layout: 'board' },
    ]);
    const graph = videoGraph(plan, null, '/work/name.txt');
    // The screen splits: the whole picture, and the left half (640x720; 1080p fits in 640x360, centred).
    expect(graph).toContain('[0:v]trim=end=10.000,setpts=PTS+0.000/TB,split[s0f][s0b]');
    expect(graph).toContain('[s0f]scale=1280:720:flags=bilinear[s0]');
    expect(graph).toContain('[s0b]scale=640:360:flags=bilinear[s0h]');
    const layers = graph.split(';\n').filter((chain) => chain.includes('overlay='));
    expect(layers.map((chain) => chain.match(/^\[v?\w*\]\[(\w+)\]/)?.[1])).toEqual([
      's0',
      'board',
      's0h',
      'w1s',
    ]);
    expect(layers[1]).toContain("enable='between(t,2.000,5.000)+between(t,5.000,7.000)'");
    expect(layers[2]).toContain("overlay=x=0:y=180:eof_action=pass:enable='between(t,2.000,5.000)'");
    // The webcam's corner over the screen, the page beside it and the page alone: all the replay.
    expect(layers[3]).toContain('overlay=x=936:y=516');
    expect(layers[3]).toContain(
      "enable='between(t,0.000,2.000)+between(t,2.000,5.000)+between(t,5.000,7.000)+between(t,7.000,10.000)'",
    );
  });
});
