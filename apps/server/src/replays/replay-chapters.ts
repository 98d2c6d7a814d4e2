import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { liveSessions } from '../db/schema.ts';
import type { JobLog } from '../jobs/job-worker.ts';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { type ReplayChapter, writeChapterFiles } from './chapter-files.ts';
import { clockOf, type ReplayClock } from './replay-clock.ts';
import { readReplayTimeline, REPLAY_FILES } from './replay-files.ts';
import type { ReplayTimeline } from './replay-timeline.ts';

/** Where the chapters of a session come from (the chapters module: page chapters and marks). */
export type ChapterSource = (
  session: { id: number; endedAt: Date | null },
  clock: ReplayClock,
) => Promise<ReplayChapter[]>;

/** Edits this close together make one rewrite. */
const REWRITE_DELAY_MS = 1_000;

type ReplayChaptersDeps = {
  db: Database;
  /** Where ready replays are kept (either driver). */
  replays: FileStore;
  /** The local work folder, where a ready replay's MP4 is rewritten before it goes back into the store. */
  replaysDir: string;
  log: JobLog;
  ffmpegPath: () => Promise<string | null>;
  delayMs?: number;
};

type Pending = { timer: NodeJS.Timeout | null; running: Promise<void> | null; again: boolean };

/**
 * The chapters inside a replay's files: written into a new replay by its job, and rewritten (the MP4 remuxed
 * with `-c copy` in a work folder and put back into the replays' store, the WebVTT track replaced) a second
 * after the teacher changes the chapters of a ready replay, on either driver. Rewrites of one session never overlap: a change during one runs another after it. Not kept across a
 * restart: a change whose rewrite a restart lost is written by the next change (the list on the page is
 * always the database's).
 */
export class ReplayChapters {
  #source: ChapterSource | null = null;
  readonly #pending = new Map<number, Pending>();
  #closed = false;

  readonly #deps: ReplayChaptersDeps;

  constructor(deps: ReplayChaptersDeps) {
    this.#deps = deps;
  }

  /** Sets where chapters come from (once, by the chapters module). */
  useSource(source: ChapterSource): void {
    this.#source = source;
  }

  /** Writes the session's chapters into a replay folder: one being made (`fresh`), or a ready one. */
  async write(
    folder: string,
    session: { id: number; startedAt: Date; endedAt: Date | null },
    timeline: ReplayTimeline,
    options: { signal?: AbortSignal; fresh?: boolean } = {},
  ): Promise<void> {
    const ffmpeg = await this.#deps.ffmpegPath();
    if (this.#source === null || ffmpeg === null) return;
    const chapters = await this.#source(session, clockOf(session, timeline));
    await writeChapterFiles(ffmpeg, folder, chapters, timeline.durationMs, options);
  }

  /** The chapters of the session changed: its ready replay's files are rewritten shortly. */
  changed(sessionId: number): void {
    if (this.#closed) return;
    const pending = this.#pending.get(sessionId) ?? { timer: null, running: null, again: false };
    this.#pending.set(sessionId, pending);
    if (pending.running !== null) {
      pending.again = true;
      return;
    }
    if (pending.timer !== null) clearTimeout(pending.timer);
    pending.timer = setTimeout(() => this.#run(sessionId, pending), this.#deps.delayMs ?? REWRITE_DELAY_MS);
  }

  /** Resolves once no rewrite is waiting or running (tests, and closing). */
  async settled(): Promise<void> {
    for (let round = 0; round < 100 && this.#pending.size > 0; round += 1) {
      await Promise.all(
        [...this.#pending.values()].map((p) => p.running ?? new Promise((r) => setTimeout(r, 50))),
      );
    }
  }

  /** Stops scheduling; waits for a rewrite that runs. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const pending of this.#pending.values()) {
      if (pending.timer !== null) clearTimeout(pending.timer);
    }
    await Promise.all([...this.#pending.values()].map((p) => p.running));
    this.#pending.clear();
  }

  #run(sessionId: number, pending: Pending): void {
    pending.timer = null;
    pending.running = this.#rewrite(sessionId)
      .catch((error: unknown) =>
        this.#deps.log.warn({ sessionId, err: error }, 'rewriting the replay’s chapters failed'),
      )
      .finally(() => {
        pending.running = null;
        if (pending.again && !this.#closed) {
          pending.again = false;
          this.#run(sessionId, pending);
        } else {
          this.#pending.delete(sessionId);
        }
      });
  }

  async #rewrite(sessionId: number): Promise<void> {
    const [session] = await this.#deps.db
      .select({
        id: liveSessions.id,
        startedAt: liveSessions.startedAt,
        endedAt: liveSessions.endedAt,
        state: liveSessions.recordingState,
      })
      .from(liveSessions)
      .where(eq(liveSessions.id, sessionId));
    if (session?.state !== 'ready') return; // its job writes the chapters as it makes it
    const { replays, replaysDir } = this.#deps;
    const timeline = await readReplayTimeline(replays, sessionId);
    if (timeline === null) return;
    // The MP4 is rewritten in a work folder, then put back whole (a reader gets the old file or the new one).
    const work = path.join(replaysDir, `${sessionId}.chapters-${randomUUID().slice(0, 8)}`);
    try {
      await fs.mkdir(path.join(work, REPLAY_FILES.hlsDir), { recursive: true });
      const mp4 = `${sessionId}/${REPLAY_FILES.mp4}`;
      await replays.copyOut(mp4, path.join(work, REPLAY_FILES.mp4));
      await this.write(work, session, timeline);
      await replays.put(`${sessionId}/${REPLAY_FILES.chapters}`, path.join(work, REPLAY_FILES.chapters));
      await replays.put(mp4, path.join(work, REPLAY_FILES.mp4));
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
    this.#deps.log.info({ sessionId }, 'replay chapters rewritten');
  }
}
