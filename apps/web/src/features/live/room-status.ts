import type { MediaState } from './live-client.ts';
import type { SignallingState } from './signalling-client.ts';

/** What a room's status line says. */
export type RoomStatus = SignallingState | 'restarting';

/**
 * The one status a room shows (연결 중 / 연결됨 / 연결 끊김 / 연결 실패 / 잠시 후 다시 연결할게요) from its two
 * connections: while the media node restarts, `restarting` (the signalling reconnects meanwhile); else while
 * the signalling is not connected, its state; once it is, the media side's (`connecting` while the room is
 * being entered or recovers, `failed` when recovery gave up).
 */
export function roomStatus(signalling: SignallingState, media: MediaState): RoomStatus {
  if (media === 'restarting' && signalling !== 'failed' && signalling !== 'disconnected') return 'restarting';
  return signalling === 'connected' ? media : signalling;
}
