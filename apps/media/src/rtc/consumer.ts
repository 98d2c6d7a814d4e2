import { randomUUID } from 'node:crypto';
import type { RTCRtpSender, RtpPacket } from 'werift';
import type { Layer, PreferredLayer, StreamKind } from '@sea/contract/live';
import { BitrateMeter } from '../forwarding/bitrate-meter.ts';
import { LayerSwitch } from '../forwarding/layer-switch.ts';
import { selectLayer } from '../forwarding/layer-selector.ts';
import { Signal } from '../signal.ts';
import type { SendState } from './send-state.ts';
import type { StreamSource } from './stream-source.ts';

/** While a student waits for a keyframe, the request is repeated this often. */
const KEYFRAME_RETRY_MS = 1_000;
/** Samples of the timestamp step at a layer switch: 90 kHz video, 48 kHz audio. */
const CLOCK_PER_MS = { video: 90, audio: 48 } as const;

/** A student's downstream bandwidth as one of their consumers sees it, in bit/s. */
export type Bandwidth = {
  /** The estimate of the student's whole connection. */
  estimateBps: number;
  /** What the student's other consumers send now (measured). */
  otherStreamsBps: number;
};

/**
 * One producer forwarded to one student: picks the layer (the student's preference, or their bandwidth),
 * switches only at keyframes, asks for keyframes when the student needs one, keeps the VP8 picture numbering
 * continuous across switches and after the m-line's previous consumer ({@link SendState}), and sends through the
 * student's werift sender (which rewrites SSRC, payload type, sequence numbers and timestamps, and answers
 * NACKs).
 * Starts paused: nothing is forwarded before {@link resume}.
 */
export class Consumer {
  readonly id = randomUUID();
  readonly producer: StreamSource;
  /** Emitted once when the consumer closes (its producer closed, or its transport did). */
  readonly closed = new Signal();
  private readonly sender: RTCRtpSender;
  private readonly bandwidth: () => Bandwidth;
  private readonly gate = new LayerSwitch();
  /** The m-line's numbering and last send time, which the next consumer on it continues. */
  private readonly state: SendState;
  private readonly meter = new BitrateMeter();
  private readonly unsubscribes: (() => void)[] = [];
  private preferred: PreferredLayer = 'auto';
  private paused = true;
  private lastRequestAt = -Infinity;
  private isClosed = false;

  /**
   * @param sender the student's sender for this stream's m-line.
   * @param bandwidth the student's current downstream estimate, and what their other streams use of it.
   * @param state what the m-line's previous consumer left (a fresh one for a new m-line).
   */
  constructor(producer: StreamSource, sender: RTCRtpSender, bandwidth: () => Bandwidth, state: SendState) {
    this.producer = producer;
    this.sender = sender;
    this.bandwidth = bandwidth;
    this.state = state;
    this.unsubscribes.push(
      producer.packet.subscribe((layer, packet, keyframeStart) => this.forward(layer, packet, keyframeStart)),
      producer.closed.subscribe(() => this.close()),
      sender.onPictureLossIndication.subscribe(() => this.requestKeyframe(true)).unSubscribe,
    );
  }

  get kind(): StreamKind {
    return this.producer.kind;
  }

  /** The layer being forwarded now (null while paused or waiting for the first keyframe). */
  get currentLayer(): Layer | null {
    return this.gate.current;
  }

  /** The layer the consumer switches to at the next keyframe. */
  get targetLayer(): Layer | null {
    return this.gate.target;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /**
   * Starts (or restarts) forwarding; video begins at the next keyframe, which is requested now (or as soon as
   * the student's connection is up).
   */
  resume(): void {
    if (this.isClosed || !this.paused) return;
    this.paused = false;
    this.gate.reset();
    this.chooseLayer();
    this.requestKeyframe(true);
    this.showHeldKeyframe();
  }

  /**
   * Stops forwarding until {@link resume}: nothing of this stream is sent to the student meanwhile. The m-line's
   * numbering stays in its {@link SendState}, so after the resume the student's decoder sees a gap in time, not
   * in sequence numbers or picture ids.
   */
  pause(): void {
    if (this.isClosed || this.paused) return;
    this.paused = true;
    this.gate.reset();
  }

  /** Fixes the layer, or `auto` to follow the student's bandwidth. */
  setPreferredLayer(layer: PreferredLayer): void {
    this.preferred = layer;
    this.chooseLayer();
  }

  /** Bitrate sent to the student, in bit/s. */
  sentBps(nowMs = performance.now()): number {
    return this.meter.bps(nowMs);
  }

  /** Periodic work: re-chooses the layer and repeats keyframe requests while the student waits. */
  tick(nowMs = performance.now()): void {
    if (this.paused || this.isClosed) return;
    this.chooseLayer();
    if (this.gate.waitingForKeyframe && nowMs - this.lastRequestAt >= KEYFRAME_RETRY_MS) {
      this.requestKeyframe(false);
    }
  }

  /** Stops forwarding and releases every subscription. Idempotent. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    this.unsubscribes.length = 0;
    this.closed.emit();
    this.closed.clear();
  }

  get isClosedNow(): boolean {
    return this.isClosed;
  }

  private chooseLayer(): void {
    const previous = this.gate.target;
    const next = selectLayer({
      ...this.bandwidth(),
      current: this.gate.current,
      preferred: this.producer.simulcast ? this.preferred : 'auto',
      available: this.producer.simulcast ? this.producer.availableLayers() : ['f'],
    });
    // Before the first packets arrive no layer is "available"; aim at the preference (or f) meanwhile.
    const target = next ?? (this.preferred === 'auto' || !this.producer.simulcast ? 'f' : this.preferred);
    this.gate.setTarget(target);
    if (target !== previous && this.gate.waitingForKeyframe) this.requestKeyframe(false);
  }

  private requestKeyframe(fromStudent: boolean): void {
    if (this.paused || this.producer.media !== 'video') return;
    // Before the student's DTLS is up nothing is forwarded, so a keyframe now would be dropped, and its request
    // would hold back, by the coalescing interval, the one made when the connection comes up.
    if (!this.connected) return;
    // A student's own PLI concerns what it receives; otherwise the layer it waits for.
    const layer = fromStudent ? (this.gate.current ?? this.gate.target) : this.gate.target;
    if (layer === null) return;
    this.lastRequestAt = performance.now();
    this.producer.requestKeyframe(layer);
  }

  /** The student's connection is up: what was sent before it was lost, so start at a fresh keyframe. */
  transportConnected(): void {
    this.gate.reset();
    // Choose again first: at resume the teacher's layers may not have been arriving yet.
    if (!this.paused && !this.isClosed) this.chooseLayer();
    this.requestKeyframe(false);
    this.showHeldKeyframe();
  }

  /**
   * A student starting (resumed, or connected) waits for the keyframe just asked for: meanwhile they get the
   * newest one the producer holds, so a picture shows at once. Only that frame: the frames after it refer to
   * ones the student never got, so forwarding starts at the fresh keyframe, which then continues the numbering,
   * sequence and timestamps from this one as at a layer switch.
   */
  private showHeldKeyframe(): void {
    if (this.paused || this.isClosed || !this.connected || this.producer.media !== 'video') return;
    const layer = this.gate.target;
    if (layer === null || this.gate.current !== null) return;
    const packets = this.producer.heldKeyframe(layer)?.packets;
    const [first] = packets ?? [];
    if (!packets || !first) return;
    const now = performance.now();
    this.continueFrom(first, now);
    for (const packet of packets) this.send(packet, now);
  }

  private get connected(): boolean {
    return this.sender.dtlsTransport?.state === 'connected';
  }

  private forward(layer: Layer, packet: RtpPacket, keyframeStart: boolean): void {
    if (this.paused || !this.connected) return;
    const decision = this.gate.onPacket(layer, keyframeStart);
    if (decision === 'drop') return;
    const now = performance.now();
    if (decision === 'switch') this.continueFrom(packet, now);
    this.send(packet, now);
  }

  /**
   * Lets the sender continue its own sequence and timestamps across a source change (another layer, a held
   * keyframe, or the first packet of this consumer on an m-line an earlier stream used) at `first`, advancing
   * the timestamp by the wall-clock time since the m-line last sent.
   */
  private continueFrom(first: RtpPacket, now: number): void {
    const { lastSentAt } = this.state;
    const elapsed = lastSentAt === null ? 1 : Math.max(1, now - lastSentAt);
    this.sender.replaceRTP(first.header, true, Math.round(elapsed * CLOCK_PER_MS[this.producer.media]));
    this.state.vp8?.switchTo(first.payload);
  }

  private send(packet: RtpPacket, now: number): void {
    this.state.lastSentAt = now;
    this.meter.add(packet.payload.length + 12, now);
    const { vp8 } = this.state;
    this.state.forwarder.forward(packet, vp8 ? vp8.descriptorFor(packet.payload) : -1, now);
  }
}
