import type { RtpPacket } from 'werift';
import type { Layer, StreamKind } from '@sea/contract/live';
import type { HeldKeyframe } from '../forwarding/keyframe-hold.ts';
import type { Signal } from '../signal.ts';

/** A layer counts as arriving while its packets came within this window. */
export const LAYER_ACTIVE_WINDOW_MS = 1_500;

/**
 * What a consumer forwards from: the teacher's stream itself ({@link Producer}), or its mirror in a forwarding
 * worker (`MirroredProducer`), which receives the same packets from the main thread.
 */
export interface StreamSource {
  readonly id: string;
  readonly kind: StreamKind;
  readonly media: 'audio' | 'video';
  /** Each packet: its layer, the packet (shared: never modify), whether it starts a keyframe. */
  readonly packet: Signal<[layer: Layer, packet: RtpPacket, keyframeStart: boolean]>;
  /** Emitted once when the stream ends. */
  readonly closed: Signal;
  /** Whether the stream has more than one layer. */
  readonly simulcast: boolean;
  readonly isClosedNow: boolean;
  /** The layers whose packets are arriving now, lowest first. */
  availableLayers(nowMs?: number): Layer[];
  /** Asks the teacher for a keyframe of `layer` (coalesced upstream). */
  requestKeyframe(layer: Layer): void;
  /** The newest complete keyframe of `layer` that is recent enough to show (`KeyframeHold`), or null. */
  heldKeyframe(layer: Layer, nowMs?: number): HeldKeyframe<RtpPacket> | null;
}
