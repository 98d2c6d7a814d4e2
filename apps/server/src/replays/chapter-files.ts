import fs from 'node:fs/promises';
import path from 'node:path';
import { REPLAY_FILES } from './replay-files.ts';
import { runFfmpeg } from './run-ffmpeg.ts';

/** A chapter as a replay's files carry it: where it starts on the replay's clock, and its title. */
export type ReplayChapter = { offsetMs: number; title: string };
/** A chapter with its end: the next one's start, or the replay's end. */
export type ChapterSpan = { startMs: number; endMs: number; title: string };

/** The chapter before the first one, in the files. */
export const OPENING_TITLE = '시작';

/** How long a remux of the MP4 may make no progress before the watchdog kills it. */
const REMUX_STALL_MS = 60_000;

/**
 * The chapters inside the replay, in order, one per start, each until the next (the last until the end), from
 * the replay's start.
 */
export function chapterSpans(chapters: readonly ReplayChapter[], durationMs: number): ChapterSpan[] {
  const starts = [...chapters]
    .map((chapter) => ({ ...chapter, offsetMs: Math.max(0, Math.round(chapter.offsetMs)) }))
    .filter((chapter) => chapter.offsetMs < durationMs)
    .sort((a, b) => a.offsetMs - b.offsetMs)
    .filter((chapter, index, all) => index === 0 || all[index - 1]?.offsetMs !== chapter.offsetMs);
  // A video's chapters cover it from its start (QuickTime's chapter track, which players read, begins at 0):
  // before the first one there is an opening chapter.
  const first = starts[0];
  if (first !== undefined && first.offsetMs > 0) starts.unshift({ offsetMs: 0, title: OPENING_TITLE });
  return starts.map((chapter, index) => ({
    startMs: chapter.offsetMs,
    endMs: starts[index + 1]?.offsetMs ?? durationMs,
    title: chapter.title.replace(/\s+/g, ' ').trim(),
  }));
}

/** ffmpeg's FFMETADATA file of these chapters (`-map_chapters` writes them as the MP4's chapter atoms). */
export function ffmetadata(spans: readonly ChapterSpan[]): string {
  // '=', ';', '#', '\' and line breaks are escaped with a backslash (ffmpeg's metadata format).
  const escape = (text: string) => text.replace(/[=;#\\\n]/g, (c) => `\\${c}`);
  const chapters = spans.map((span) =>
    [
      '[CHAPTER]',
      'TIMEBASE=1/1000',
      `START=${span.startMs}`,
      `END=${span.endMs}`,
      `title=${escape(span.title)}`,
    ]
      .map((line) => `${line}\n`)
      .join(''),
  );
  return `;FFMETADATA1\n${chapters.join('')}`;
}

/** A WebVTT chapters track of these chapters (`<track kind="chapters">`). */
export function webVttChapters(spans: readonly ChapterSpan[]): string {
  const time = (ms: number) => {
    const hours = Math.floor(ms / 3_600_000);
    const minutes = Math.floor(ms / 60_000) % 60;
    const seconds = Math.floor(ms / 1000) % 60;
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}.${pad(ms % 1000, 3)}`;
  };
  // Cue text is HTML-like: '&', '<' and '>' (and so '-->') are written as character references.
  const escape = (text: string) =>
    text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? c);
  const cues = spans.map(
    (span, index) => `${index + 1}\n${time(span.startMs)} --> ${time(span.endMs)}\n${escape(span.title)}\n`,
  );
  return ['WEBVTT\n', ...cues].join('\n');
}

/**
 * Writes the chapters into a replay folder: `hls/chapters.vtt`, and the MP4 remuxed (copied, not encoded) with
 * an FFMETADATA file so that its chapter atoms list them (none: the MP4's chapters are dropped; `fresh`: the MP4
 * was just made without chapters, so none need no remux). Each file is
 * written beside its final name and renamed over it, so a reader sees the old file or the new one, whole.
 */
export async function writeChapterFiles(
  ffmpegPath: string,
  folder: string,
  chapters: readonly ReplayChapter[],
  durationMs: number,
  options: { signal?: AbortSignal; fresh?: boolean } = {},
): Promise<void> {
  const { signal, fresh = false } = options;
  const spans = chapterSpans(chapters, durationMs);
  const vtt = path.join(folder, REPLAY_FILES.chapters);
  await fs.writeFile(`${vtt}.new`, webVttChapters(spans));
  await fs.rename(`${vtt}.new`, vtt);
  // A new MP4 has no chapters yet: without any, it needs no remux.
  if (fresh && spans.length === 0) return;
  const metadata = path.join(folder, 'chapters.ffmeta');
  const mp4 = path.join(folder, REPLAY_FILES.mp4);
  const remuxed = path.join(folder, 'replay.chapters.mp4');
  await fs.writeFile(metadata, ffmetadata(spans));
  try {
    await runFfmpeg(
      ffmpegPath,
      [
        ...['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'error', '-y'],
        ...['-i', mp4, '-f', 'ffmetadata', '-i', metadata],
        // The picture and the sound only: the old chapters' text track (a data stream) is replaced, not copied.
        ...['-map', '0:v', '-map', '0:a', '-map_metadata', '0'],
        ...['-map_chapters', spans.length > 0 ? '1' : '-1'],
        ...['-c', 'copy', '-movflags', '+faststart', '-progress', 'pipe:1', remuxed],
      ],
      { signal, stallMs: () => REMUX_STALL_MS },
    );
    await fs.rename(remuxed, mp4);
  } finally {
    await fs.rm(metadata, { force: true });
    await fs.rm(remuxed, { force: true });
  }
}
