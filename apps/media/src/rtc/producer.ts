import { randomUUID } from 'node:crypto';
import type { MediaStreamTrack, RtpPacket } from 'werift';
import { LAYERS, mediaKindOf, type Layer, type StreamKind } from '@sea/contract/live';
import { BitrateMeter } from '../forwarding/bitrate-meter.ts';
import { KeyframeHold, type HeldKeyframe } from '../forwarding/keyframe-hold.ts';
import { KeyframeRequester } from '../forwarding/keyframe-requester.ts';
import { isVp8KeyframeStart } from '../forwarding/vp8.ts';
import { Signal } from '../signal.ts';
import { forwardable } from './rtp.ts';
import { LAYER_ACTIVE_WINDOW_MS, type StreamSource } from './stream-source.ts';

/** What a producer reads of a received track: its rid (the layer, for simulcast), SSRC and packets. */
export type ReceivedTrack = Pick<MediaStreamTrack, 'rid' | 'ssrc' | 'onReceiveRtp'>;

type Source = {
  layer: Layer;
  /** Taken from the first packet: werift leaves `ssrc` undefined on rid tracks. */
  ssrc: number | null;
  lastPacketAt: number;
  meter: BitrateMeter;
  keyframes: KeyframeRequester;
  /** The newest keyframe, for students who start between keyframes (video only). */
  held: KeyframeHold<RtpPacket>;
  unsubscribe: () => void;
};

/**
 * One stream the teacher publishes (webcam video with its three simulcast layers, or a single-layer stream,
 * whose one layer is called `f`). It detects keyframes, knows each layer's SSRC, coalesces keyframe requests per
 * layer, and hands every packet, cleaned for forwarding, to its consumers through {@link packet}.
 */
export class Producer implements StreamSource {
  readonly id = randomUUID();
  readonly kind: StreamKind;
  readonly media: 'audio' | 'video';
  /** Each packet: its layer, the packet (shared: never modify), whether it starts a keyframe. */
  readonly packet = new Signal<[layer: Layer, packet: RtpPacket, keyframeStart: boolean]>();
  /** Emitted once when the producer closes. */
  readonly closed = new Signal();
  private readonly sources = new Map<Layer, Source>();
  private isClosed = false;

  /**
   * @param tracks the transceiver's remote tracks: three with rids for simulcast, else one.
   * @param sendPli sends a PLI upstream for an SSRC.
   */
  constructor(kind: StreamKind, tracks: ReceivedTrack[], sendPli: (ssrc: number) => void) {
    this.kind = kind;
    this.media = mediaKindOf(kind);
    for (const track of tracks) {
      const layer = LAYERS.find((l) => l === track.rid) ?? 'f';
      if (this.sources.has(layer)) continue;
      const source: Source = {
        layer,
        ssrc: track.ssrc ?? null,
        lastPacketAt: -Infinity,
        meter: new BitrateMeter(),
        keyframes: new KeyframeRequester(() => {
          if (source.ssrc !== null) sendPli(source.ssrc);
        }),
        held: new KeyframeHold<RtpPacket>(),
        unsubscribe: () => undefined,
      };
      source.unsubscribe = track.onReceiveRtp.subscribe((packet) => this.receive(source, packet)).unSubscribe;
      this.sources.set(layer, source);
    }
  }

  /** The layers whose packets are arriving now, lowest first. */
  availableLayers(nowMs = performance.now()): Layer[] {
    return LAYERS.filter((layer) => {
      const source = this.sources.get(layer);
      return source !== undefined && nowMs - source.lastPacketAt < LAYER_ACTIVE_WINDOW_MS;
    });
  }

  /** The layers the stream has, lowest first (arriving or not). */
  get layers(): Layer[] {
    return LAYERS.filter((layer) => this.sources.has(layer));
  }

  /** Whether the stream has more than one layer. */
  get simulcast(): boolean {
    return this.sources.size > 1;
  }

  /** Asks the teacher for a keyframe of `layer` (coalesced; repeated by {@link tick} until one arrives). */
  requestKeyframe(layer: Layer, nowMs = performance.now()): void {
    if (this.media !== 'video') return;
    this.sources.get(layer)?.keyframes.request(nowMs);
  }

  heldKeyframe(layer: Layer, nowMs = performance.now()): HeldKeyframe<RtpPacket> | null {
    return this.media === 'video' ? (this.sources.get(layer)?.held.latest(nowMs) ?? null) : null;
  }

  /** Whether a keyframe of `layer` is awaited. */
  waitingForKeyframe(layer: Layer): boolean {
    return this.sources.get(layer)?.keyframes.isWaiting ?? false;
  }

  /** The bitrate arriving on a layer, in bit/s. */
  layerBitrate(layer: Layer, nowMs = performance.now()): number {
    return this.sources.get(layer)?.meter.bps(nowMs) ?? 0;
  }

  /** Periodic work: repeats keyframe requests somebody still waits for. */
  tick(nowMs = performance.now()): void {
    for (const source of this.sources.values()) source.keyframes.tick(nowMs);
  }

  /** Stops the stream: consumers hear `closed` and detach. Idempotent. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const source of this.sources.values()) source.unsubscribe();
    this.sources.clear();
    this.closed.emit();
    this.closed.clear();
    this.packet.clear();
  }

  get isClosedNow(): boolean {
    return this.isClosed;
  }

  private receive(source: Source, packet: RtpPacket): void {
    const now = performance.now();
    if (source.ssrc === null) {
      source.ssrc = packet.header.ssrc;
      // A keyframe request made before the SSRC was known can go out now.
      if (source.keyframes.isWaiting) source.keyframes.tick(now);
    }
    source.lastPacketAt = now;
    source.meter.add(packet.payload.length + 12, now);
    const keyframeStart = this.media === 'audio' || isVp8KeyframeStart(packet.payload);
    const cleaned = forwardable(packet);
    if (this.media === 'video') {
      if (keyframeStart) source.keyframes.keyframeArrived();
      source.held.add(cleaned, keyframeStart, now);
    }
    this.packet.emit(source.layer, cleaned, keyframeStart);
  }
}
