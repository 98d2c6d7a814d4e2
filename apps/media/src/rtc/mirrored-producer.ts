import { RtpPacket } from 'werift';
import { LAYERS, mediaKindOf, type Layer, type StreamKind } from '@sea/contract/live';
import { KeyframeHold, type HeldKeyframe } from '../forwarding/keyframe-hold.ts';
import { Signal } from '../signal.ts';
import { LAYER_ACTIVE_WINDOW_MS, type StreamSource } from './stream-source.ts';

/**
 * A teacher's stream inside a forwarding worker: the main thread's {@link Producer} sends it every packet (already
 * cleaned for forwarding) and it hands them to this worker's consumers; keyframe requests go back to the producer,
 * which coalesces them for the whole room.
 */
export class MirroredProducer implements StreamSource {
  readonly id: string;
  readonly kind: StreamKind;
  readonly media: 'audio' | 'video';
  readonly packet = new Signal<[layer: Layer, packet: RtpPacket, keyframeStart: boolean]>();
  readonly closed = new Signal();
  private readonly layers: Layer[];
  private readonly lastPacketAt = new Map<Layer, number>();
  /** Each video layer's newest keyframe, for this worker's students who start between keyframes. */
  private readonly held = new Map<Layer, KeyframeHold<RtpPacket>>();
  private readonly askKeyframe: (layer: Layer) => void;
  private isClosed = false;

  /** @param layers the layers the producer has (arriving or not). */
  constructor(id: string, kind: StreamKind, layers: Layer[], askKeyframe: (layer: Layer) => void) {
    this.id = id;
    this.kind = kind;
    this.media = mediaKindOf(kind);
    this.layers = layers;
    this.askKeyframe = askKeyframe;
  }

  get simulcast(): boolean {
    return this.layers.length > 1;
  }

  get isClosedNow(): boolean {
    return this.isClosed;
  }

  availableLayers(nowMs = performance.now()): Layer[] {
    return LAYERS.filter(
      (layer) => nowMs - (this.lastPacketAt.get(layer) ?? -Infinity) < LAYER_ACTIVE_WINDOW_MS,
    );
  }

  requestKeyframe(layer: Layer): void {
    if (this.isClosed || this.media !== 'video') return;
    this.askKeyframe(layer);
  }

  heldKeyframe(layer: Layer, nowMs = performance.now()): HeldKeyframe<RtpPacket> | null {
    return this.held.get(layer)?.latest(nowMs) ?? null;
  }

  /** The main thread's held keyframe of `layer`, serialised, complete `ageMs` ago (sent with the description). */
  adoptKeyframe(layer: Layer, packets: Uint8Array[], ageMs: number): void {
    if (this.isClosed || this.media !== 'video') return;
    this.holdOf(layer).adopt(packets.map(parse), ageMs, performance.now());
  }

  private holdOf(layer: Layer): KeyframeHold<RtpPacket> {
    let hold = this.held.get(layer);
    if (!hold) this.held.set(layer, (hold = new KeyframeHold<RtpPacket>()));
    return hold;
  }

  /** A packet of `layer` arrived, forwarded or not (a stale one dropped): the layer is still being sent. */
  arrived(layer: Layer, nowMs = performance.now()): void {
    this.lastPacketAt.set(layer, nowMs);
  }

  /** A packet from the main thread: the serialised RTP packet. */
  receive(layer: Layer, data: Uint8Array, keyframeStart: boolean): void {
    if (this.isClosed) return;
    const now = performance.now();
    this.arrived(layer, now);
    // Video is parsed without listeners too: its keyframes are held for the students about to consume it.
    if (this.packet.size === 0 && this.media !== 'video') return;
    const packet = parse(data);
    if (this.media === 'video') this.holdOf(layer).add(packet, keyframeStart, now);
    this.packet.emit(layer, packet, keyframeStart);
  }

  /** The stream ended: consumers hear `closed` and detach. Idempotent. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.closed.emit();
    this.closed.clear();
    this.packet.clear();
  }
}

function parse(data: Uint8Array): RtpPacket {
  return RtpPacket.deSerialize(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
}
