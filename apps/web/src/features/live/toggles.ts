import type { StreamKind } from '@sea/contract/live';
import type { LiveServices } from './live-services.ts';
import type { StreamState } from './teacher-publisher.ts';

/** The teacher's four toggles. */
export const TOGGLES = ['webcam', 'screen', 'microphone', 'systemAudio'] as const;
export type ToggleName = (typeof TOGGLES)[number];

/** The stream each toggle publishes. */
export const TOGGLE_KINDS: Record<ToggleName, StreamKind> = {
  webcam: 'webcamVideo',
  screen: 'screenShareVideo',
  microphone: 'webcamAudio',
  systemAudio: 'screenShareAudio',
};

/**
 * A toggle's state: the publisher's stream state, or a capture step or its outcome before it: `captureFailed`
 * (the device could not be used), `cancelled` (the screen picker was dismissed: the toggle is off again) and
 * `unsupported` (the browser cannot share a screen, or gives no system audio).
 */
export type ToggleState = StreamState | 'capturing' | 'captureFailed' | 'cancelled' | 'unsupported';

/** The states in which a toggle is on (its button switches it off). */
export const ON_STATES: readonly ToggleState[] = ['capturing', 'publishing', 'published'];

/** Captures what a toggle publishes; `track` is null when the browser gives no track of that kind (system audio). */
export async function capture(
  name: ToggleName,
  services: Pick<LiveServices, 'getUserMedia' | 'getDisplayMedia'>,
): Promise<{ track: MediaStreamTrack | null; all: MediaStreamTrack[] }> {
  let stream: MediaStream;
  if (name === 'webcam') {
    // 1280x720 or more, or the browser drops the upper simulcast layers.
    stream = await services.getUserMedia({ video: { width: { ideal: 1280 }, height: { ideal: 720 } } });
  } else if (name === 'microphone') {
    stream = await services.getUserMedia({ audio: true });
  } else if (name === 'screen') {
    stream = await services.getDisplayMedia({ video: true });
  } else {
    // Browsers capture system or tab audio only together with a display; the video part stays unused.
    stream = await services.getDisplayMedia({ video: true, audio: true });
  }
  const all = stream.getTracks();
  const wanted = name === 'webcam' || name === 'screen' ? stream.getVideoTracks() : stream.getAudioTracks();
  return { track: wanted[0] ?? null, all };
}

/**
 * What a failed capture means for its toggle. Camera and microphone: `captureFailed` (the spec's 'Failed to get
 * user media'). Display capture (screen, system audio): the picker dismissed or the capture refused
 * (`NotAllowedError`, `AbortError`) is `cancelled`; a browser without display capture (`NotSupportedError`)
 * is `unsupported`; anything else `captureFailed`.
 */
export function captureOutcome(name: ToggleName, error: unknown): ToggleState {
  if (name === 'webcam' || name === 'microphone') return 'captureFailed';
  const type = error instanceof DOMException ? error.name : '';
  if (type === 'NotAllowedError' || type === 'AbortError') return 'cancelled';
  if (type === 'NotSupportedError') return 'unsupported';
  return 'captureFailed';
}
