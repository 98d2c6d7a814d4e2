import { badRequest } from '../errors.ts';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { readReplayTimeline } from './replay-files.ts';
import { type ReplayTimeline, toReplayMs, toSessionMs } from './replay-timeline.ts';

/** Where a moment of the session sits on the replay's clock (milliseconds from the start, pauses cut out). */
export type ToOffset = (at: Date) => number;

/**
 * A session's replay clock, both ways: its timeline once the replay is ready (the teacher's pauses cut out),
 * else the plain time since its start. `endMs` is the last offset a moment of it may have: the replay's length,
 * the lecture's length once ended, or now while it is on.
 */
export type ReplayClock = {
  toOffset: ToOffset;
  /** The moment of the session that a replay offset shows. */
  toAt(offsetMs: number): Date;
  endMs: number;
};

type ClockedSession = { id: number; startedAt: Date; endedAt: Date | null; recordingState: string };

/** The clock of a session from its timeline (null: not ready). */
export function clockOf(
  session: Omit<ClockedSession, 'id' | 'recordingState'>,
  timeline: ReplayTimeline | null,
  now = new Date(),
): ReplayClock {
  const start = session.startedAt.getTime();
  const toOffset: ToOffset = (at) => {
    const sessionMs = Math.max(0, at.getTime() - start);
    return Math.round(timeline === null ? sessionMs : toReplayMs(timeline, sessionMs));
  };
  return {
    toOffset,
    toAt: (offsetMs) => new Date(start + (timeline === null ? offsetMs : toSessionMs(timeline, offsetMs))),
    endMs: timeline?.durationMs ?? toOffset(session.endedAt ?? now),
  };
}

/** The replay clock of a session, reading its timeline when its replay is ready. */
export async function replayClock(replays: FileStore, session: ClockedSession): Promise<ReplayClock> {
  const timeline = session.recordingState === 'ready' ? await readReplayTimeline(replays, session.id) : null;
  return clockOf(session, timeline);
}

/**
 * The moment a chapter or a note is pinned to: the replay offset given (400 past the replay's end), or without
 * one the lecture's "now" (400 once the lecture has ended: the client must say where).
 */
export function pinnedAt(clock: ReplayClock, live: boolean, offsetMs: number | undefined): Date {
  if (offsetMs === undefined) {
    if (!live) {
      throw badRequest(
        '시간(offset_ms)을 보내 주세요.',
        'offset_ms is required once the lecture has ended.',
        {
          offset_ms: '시간(offset_ms)을 보내 주세요.',
        },
      );
    }
    return new Date();
  }
  if (offsetMs > clock.endMs + 1_000) {
    const message = '강의 길이를 넘는 시간이에요.';
    throw badRequest(message, 'offset_ms is past the end of the session.', { offset_ms: message });
  }
  return clock.toAt(Math.min(offsetMs, clock.endMs));
}
