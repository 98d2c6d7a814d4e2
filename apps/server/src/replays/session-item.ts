import type { RecordingState, SessionItem } from '@sea/contract/sessions';
import type { SessionRow } from '../sessions/session-rows.ts';
import type { ViewerUrls } from './replay-urls.ts';

/** The session as the API answers it: signed URLs (the caller's own) only when its replay is ready. */
export function toSessionItem(row: SessionRow, urls: ViewerUrls, now = new Date()): SessionItem {
  const end = row.endedAt ?? now;
  const ready = row.recordingState === 'ready';
  return {
    id: row.id,
    class_id: row.classId,
    started_at: row.startedAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
    duration_s: Math.max(0, Math.round((end.getTime() - row.startedAt.getTime()) / 1000)),
    recording: {
      state: row.recordingState as RecordingState,
      progress: ready ? 100 : Math.max(0, Math.min(100, row.recordingProgress)),
      title: row.title,
      hidden: row.hidden,
      ...(ready ? urls.urls(row.id) : { hls_url: null, mp4_url: null }),
      error: row.recordingError,
      gaps: ready ? replayGaps(row.recordingGaps) : [],
    },
  };
}

/**
 * The gaps as the API tells them. A replay made before `atMs` was kept places each gap at its start less the
 * earlier gaps (the teacher's pauses unknown here: such a mark may sit late by them).
 */
function replayGaps(gaps: SessionRow['recordingGaps']): SessionItem['recording']['gaps'] {
  let missingMs = 0;
  return gaps.map((gap) => {
    const atMs = gap.atMs ?? Math.max(0, gap.fromMs - missingMs);
    missingMs += Math.max(0, gap.untilMs - gap.fromMs);
    return {
      from_s: Math.floor(gap.fromMs / 1000),
      until_s: Math.ceil(gap.untilMs / 1000),
      at_s: Math.round(atMs) / 1000,
    };
  });
}
