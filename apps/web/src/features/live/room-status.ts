import type { MediaState } from './live-client.ts';
import type { SignallingState } from './signalling-client.ts';

/**
 * The one status a room shows (연결 중 / 연결됨 / 연결 끊김 / 연결 실패) from its two connections: while the
 * signalling is not connected, its state; once it is, the media side's (`connecting` while the room is being
 * entered or recovers, `failed` when recovery gave up).
 */
export function roomStatus(signalling: SignallingState, media: MediaState): SignallingState {
  return signalling === 'connected' ? media : signalling;
}
