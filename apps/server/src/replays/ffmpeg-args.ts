import path from 'node:path';
import {
  type CompositionPlan,
  CORNER,
  FRAME,
  type LayoutSpan,
  type PlacedFile,
  SIDE_BOX,
  spansOf,
} from './composition-plan.ts';

/**
 * The output every browser and phone plays: H.264 (yuv420p) and AAC in MP4, then remuxed to HLS without
 * encoding again. x264's superfast preset keeps processing several times faster than real time on one core.
 * A change to these settings or to the graphs below changes what a window is: raise `WINDOW_FORMAT`
 * (replay-windows.ts) with a change to the graphs (these settings are in the windows' keys already).
 */
export const ENCODING = {
  fps: 30,
  preset: 'superfast',
  crf: 23,
  maxRate: '3M',
  bufferSize: '6M',
  audioBitrate: '128k',
  sampleRate: 48_000,
  /** Keyframes (and so HLS segments) every this many seconds. */
  segmentSeconds: 6,
} as const;

/** A run that says nothing but errors, reads no keyboard and overwrites its output. */
const QUIET = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', '-y'];
/**
 * A window's encode goes on past frames it cannot decode (a file cut off where the disk filled or the node
 * died ends with a damaged frame): ffmpeg fails a run where more than 2/3 of the decoded frames were damaged,
 * which a window that reads only the last seconds of such a file can be.
 */
const DAMAGE_TOLERATED = ['-max_error_rate', '1'];

export type EncodeOptions = {
  /** The recording's folder (the plan's file names are inside it). */
  inputDir: string;
  /** A file holding the teacher's name (drawn as is: no escaping, no expansion). */
  nameFile: string;
  /** A font with Hangul, or null: the black picture then shows no name. */
  fontFile: string | null;
  output: string;
  /**
   * The board's pictures as an ffconcat list (`board-pictures.ts`), from the plan's time 0; required when the
   * plan has the board on stage.
   */
  boardList?: string | null;
  /** Threads for decoding, filtering and encoding (the benchmark measures one core); null: ffmpeg's choice. */
  threads?: number | null;
};

const seconds = (ms: number) => (ms / 1000).toFixed(3);
/** Bilinear scaling: a third cheaper than swscale's default bicubic for the screen's 1080p to 720p. */
const SCALE = 'flags=bilinear';
const even = (n: number) => Math.max(2, 2 * Math.round(n / 2));

/** Escapes a value for a filter option, then for the filter graph (ffmpeg's two levels of quoting). */
export function filterValue(value: string): string {
  const option = value.replace(/[\\':]/g, (c) => `\\${c}`);
  return option.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/** The largest even size of this aspect that fits the box (the box itself when the size is unknown). */
export function fit(width: number | null, height: number | null, boxWidth: number, boxHeight: number) {
  if (!width || !height) return { width: boxWidth, height: boxHeight };
  const scale = Math.min(boxWidth / width, boxHeight / height);
  return {
    width: Math.min(boxWidth, even(width * scale)),
    height: Math.min(boxHeight, even(height * scale)),
  };
}

/** A timeline `enable` expression for these stretches. */
function enableWhen(spans: LayoutSpan[]): string {
  return spans.map((s) => `between(t,${seconds(s.fromMs)},${seconds(s.untilMs)})`).join('+');
}

/** `+1.500` or `-0.250`: a shift of the timestamps by these milliseconds. */
const shift = (ms: number) => (ms < 0 ? `-${seconds(-ms)}` : `+${seconds(ms)}`);

/**
 * Trims a file to its stretch (media time, from `skipMs` when a window starts inside it) and moves it to its
 * place on the timeline.
 */
function trimmed(input: string, p: PlacedFile, audio: boolean): string {
  const skip = p.skipMs ?? 0;
  const length = seconds(skip + p.untilMs - p.atMs);
  const [trim, setpts] = audio ? ['atrim', 'asetpts'] : ['trim', 'setpts'];
  const from = skip > 0 ? `start=${seconds(skip)}:` : '';
  return `${input}${trim}=${from}end=${length},${setpts}=PTS${shift(p.atMs - skip)}/TB`;
}

/**
 * The picture's filter graph, from its layers: the plan's screen shares and webcams are inputs 0.. in that
 * order, the board's pictures the next one.
 */
export function videoGraph(plan: CompositionPlan, fontFile: string | null, nameFile: string): string {
  const chains: string[] = [];
  const { fps } = ENCODING;
  const duration = seconds(plan.durationMs);
  const black = spansOf(plan, 'black');
  let base = `color=c=black:s=${FRAME.width}x${FRAME.height}:r=${fps}:d=${duration},format=yuv420p`;
  if (fontFile && black.length > 0) {
    base +=
      `,drawtext=fontfile=${filterValue(fontFile)}:textfile=${filterValue(nameFile)}:expansion=none` +
      `:fontcolor=white:fontsize=48:x=(w-text_w)/2:y=(h-text_h)/2:enable='${enableWhen(black)}'`;
  }
  chains.push(`${base}[base]`);
  let below = 'base';
  let layer = 0;
  const overlay = (picture: string, x: number | string, y: number | string, enable?: string) => {
    layer += 1;
    const out = `v${layer}`;
    const when = enable ? `:enable='${enable}'` : '';
    chains.push(`[${below}][${picture}]overlay=x=${x}:y=${y}:eof_action=pass${when}[${out}]`);
    below = out;
  };

  let input = 0;
  const inputOf = new Map<PlacedFile, number>();
  for (const p of [...plan.screens, ...plan.webcams]) inputOf.set(p, input++);

  const overlapping = (p: PlacedFile, spans: LayoutSpan[]) =>
    spans.some((s) => s.fromMs < p.untilMs && p.atMs < s.untilMs);
  // The screen share fills the picture (letterboxed on black); beside the page, it fills the left half.
  const sided = spansOf(plan, 'side', 'side+webcam');
  const halves: { name: string; width: number; height: number }[] = [];
  for (const p of plan.screens) {
    const i = inputOf.get(p) ?? 0;
    const size = fit(p.width, p.height, FRAME.width, FRAME.height);
    const beside = overlapping(p, sided);
    const scale = `scale=${size.width}:${size.height}:${SCALE}[s${i}]`;
    if (beside) chains.push(`${trimmed(`[${i}:v]`, p, false)},split[s${i}f][s${i}b]`, `[s${i}f]${scale}`);
    else chains.push(`${trimmed(`[${i}:v]`, p, false)},${scale}`);
    overlay(`s${i}`, (FRAME.width - size.width) / 2, (FRAME.height - size.height) / 2);
    if (beside) {
      const half = fit(p.width, p.height, SIDE_BOX.width, SIDE_BOX.height);
      chains.push(`[s${i}b]scale=${half.width}:${half.height}:${SCALE}[s${i}h]`);
      halves.push({ name: `s${i}h`, ...half });
    }
  }
  // The board's page, where on stage, covers the screen share (its pictures are of the frame's size; beside
  // the screen share the page is in the right half and the left half black, under the screen's half below).
  if (plan.board.length > 0) {
    chains.push(`[${input}:v]null[board]`);
    overlay('board', 0, 0, enableWhen(spansOf(plan, 'board', 'board+webcam', 'side', 'side+webcam')));
  }
  for (const half of halves) {
    const x = (SIDE_BOX.width - half.width) / 2;
    overlay(half.name, x, (FRAME.height - half.height) / 2, enableWhen(sided));
  }
  // The webcam fills the picture where there is no screen share nor board, and sits in a corner over them.
  const cornered = spansOf(plan, 'screen+webcam', 'board+webcam', 'side+webcam');
  const alone = enableWhen(spansOf(plan, 'webcam'));
  const corner = enableWhen(cornered);
  for (const p of plan.webcams) {
    const full = fit(p.width, p.height, FRAME.width, FRAME.height);
    const small = fit(p.width, p.height, CORNER.width, FRAME.height);
    const showsAlone = overlapping(p, spansOf(plan, 'webcam'));
    const showsInCorner = overlapping(p, cornered);
    if (!showsAlone && !showsInCorner) continue;
    const i = inputOf.get(p) ?? 0;
    const name = `w${i}`;
    const split = showsAlone && showsInCorner;
    chains.push(`${trimmed(`[${i}:v]`, p, false)}${split ? `,split[${name}a][${name}c]` : `[${name}]`}`);
    if (showsAlone) {
      const source = split ? `${name}a` : name;
      chains.push(`[${source}]scale=${full.width}:${full.height}:${SCALE}[${name}f]`);
      overlay(`${name}f`, (FRAME.width - full.width) / 2, (FRAME.height - full.height) / 2, alone);
    }
    if (showsInCorner) {
      const source = split ? `${name}c` : name;
      chains.push(`[${source}]scale=${small.width}:${small.height}:${SCALE}[${name}s]`);
      const margin = CORNER.marginPx;
      overlay(`${name}s`, FRAME.width - small.width - margin, FRAME.height - small.height - margin, corner);
    }
  }
  chains.push(`[${below}]null[video]`);
  return chains.join(';\n');
}

/**
 * The sound's filter graph: each of the plan's audio files (inputs 0.., in order) becomes a track of the
 * plan's length (silence around it), then they are summed.
 */
export function audioGraph(plan: Pick<CompositionPlan, 'audio' | 'durationMs'>): string {
  const chains: string[] = [];
  const samples = Math.round((plan.durationMs / 1000) * ENCODING.sampleRate);
  const tracks = plan.audio.map((p, i) => {
    chains.push(
      `${trimmed(`[${i}:a]`, p, true)},` +
        `aresample=${ENCODING.sampleRate}:async=1:first_pts=0,aformat=sample_fmts=fltp:channel_layouts=stereo,` +
        `apad=whole_len=${samples},atrim=end_sample=${samples}[a${i}]`,
    );
    return `[a${i}]`;
  });
  if (tracks.length === 0) {
    chains.push(`anullsrc=r=${ENCODING.sampleRate}:cl=stereo,atrim=end_sample=${samples}[audio]`);
  } else if (tracks.length === 1) {
    chains.push(`${tracks[0]}anull[audio]`);
  } else {
    // amix divides by the number of inputs; all last the whole replay, so multiplying back gives their sum.
    chains.push(
      `${tracks.join('')}amix=inputs=${tracks.length}:duration=longest:dropout_transition=0,` +
        `volume=${tracks.length}[audio]`,
    );
  }
  return chains.join(';\n');
}

/** The inputs of these files, each from where its stretch starts (`skipMs`: a window inside it). */
function inputs(files: readonly PlacedFile[], options: Pick<EncodeOptions, 'inputDir' | 'threads'>) {
  const threads = options.threads ? ['-threads', String(options.threads)] : [];
  return files.flatMap((p) => [
    ...threads,
    // Video sizes may change inside a file (a layer switch, a resized window): the scale filters take it.
    ...(p.kind.endsWith('Video') ? ['-reinit_filter', '0'] : []),
    // Seeks to the keyframe before (a window starting inside the file); the trim cuts exactly. Even from 0:
    // unseeked, ffmpeg moves a first packet before 0 (Opus's pre-skip) to 0, seeked it keeps its time, and
    // every window must read a file on one clock.
    '-ss',
    seconds(p.skipMs ?? 0),
    '-i',
    path.join(options.inputDir, p.file),
  ]);
}

/**
 * The arguments that encode the plan's picture into a video-only MP4 (H.264, a keyframe at its start and
 * every `segmentSeconds`): a replay's window (`replay-windows.ts`).
 */
export function videoArgs(plan: CompositionPlan, options: EncodeOptions): string[] {
  const threads = options.threads ? ['-threads', String(options.threads)] : [];
  const list = inputs([...plan.screens, ...plan.webcams], options);
  if (plan.board.length > 0) {
    if (!options.boardList) throw new Error('the board is on stage but its pictures were not made');
    list.push(...threads, '-f', 'concat', '-i', options.boardList);
  }
  const filterThreads = options.threads ? ['-filter_threads', String(options.threads)] : [];
  return [
    ...QUIET,
    ...DAMAGE_TOLERATED,
    // Media time 0 of each file is where its track event says: keep the files' own timestamps.
    '-copyts',
    ...list,
    ...filterThreads,
    '-filter_complex',
    videoGraph(plan, options.fontFile, options.nameFile),
    '-map',
    '[video]',
    '-t',
    seconds(plan.durationMs),
    '-c:v',
    'libx264',
    ...threads,
    '-preset',
    ENCODING.preset,
    '-crf',
    String(ENCODING.crf),
    '-maxrate',
    ENCODING.maxRate,
    '-bufsize',
    ENCODING.bufferSize,
    '-pix_fmt',
    'yuv420p',
    '-force_key_frames',
    `expr:gte(t,n_forced*${ENCODING.segmentSeconds})`,
    '-f',
    'mp4',
    '-progress',
    'pipe:1',
    options.output,
  ];
}

/** The arguments that encode the plan's sound into raw AAC frames (ADTS), which `adts.ts` joins. */
export function audioArgs(plan: CompositionPlan, options: Omit<EncodeOptions, 'nameFile' | 'fontFile'>) {
  return [
    ...QUIET,
    ...DAMAGE_TOLERATED,
    '-copyts',
    ...inputs(plan.audio, options),
    '-filter_complex',
    audioGraph(plan),
    '-map',
    '[audio]',
    '-c:a',
    'aac',
    '-b:a',
    ENCODING.audioBitrate,
    '-f',
    'adts',
    '-progress',
    'pipe:1',
    options.output,
  ];
}

/**
 * The arguments that join the windows' pictures (an ffconcat list) and the joined sound into the replay's MP4,
 * copying (faststart: the index first, so a browser plays while it downloads).
 */
export function joinArgs(videoList: string, audio: string, output: string): string[] {
  return [
    ...QUIET,
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    videoList,
    '-i',
    audio,
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-c',
    'copy',
    '-movflags',
    '+faststart',
    '-progress',
    'pipe:1',
    output,
  ];
}

/** The arguments that cut the MP4 into an HLS VOD playlist of about `segmentSeconds` segments, copying. */
export function hlsArgs(mp4: string, hlsDir: string): string[] {
  return [
    ...QUIET,
    '-i',
    mp4,
    '-c',
    'copy',
    '-f',
    'hls',
    '-hls_time',
    String(ENCODING.segmentSeconds),
    '-hls_playlist_type',
    'vod',
    '-hls_segment_filename',
    path.join(hlsDir, 'segment-%05d.ts'),
    // Watched by the job's watchdog, like the encode.
    '-progress',
    'pipe:1',
    path.join(hlsDir, 'index.m3u8'),
  ];
}
