import type { SessionItem, SessionRecording } from '@sea/contract/sessions';

/** A finished session of class 7 with a ready replay, changed by `recording`. */
export function sessionItem(
  id: number,
  recording: Partial<SessionRecording> = {},
  overrides: Partial<Omit<SessionItem, 'recording'>> = {},
): SessionItem {
  return {
    id,
    class_id: 7,
    started_at: `2026-11-${String(10 + id).padStart(2, '0')}T10:00:00.000Z`,
    ended_at: `2026-11-${String(10 + id).padStart(2, '0')}T10:45:00.000Z`,
    duration_s: 2_700,
    recording: {
      state: 'ready',
      progress: 100,
      title: null,
      hidden: false,
      hls_url: `/api/replays/${id}/hls/index.m3u8?exp=1&sig=a`,
      mp4_url: `/api/replays/${id}/replay.mp4?exp=1&sig=b`,
      error: null,
      gaps: [],
      ...recording,
    },
    ...overrides,
  };
}
