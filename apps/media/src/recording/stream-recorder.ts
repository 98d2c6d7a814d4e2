import type { Layer, StreamKind } from '@sea/contract/live';
import type { RecordingEvent } from '@sea/contract/recording';
import { vp8KeyframeSize } from '../forwarding/vp8.ts';
import type { StreamSource } from '../rtc/stream-source.ts';
import { WebmWriter } from '../rtc/webm-writer.ts';

type Packet = Parameters<Parameters<StreamSource['packet']['subscribe']>[0]>[1];
type Pending = { layer: Layer; packet: Packet; keyframeStart: boolean; at: number };

/**
 * Packets held between two drains. A drain comes every few hundred milliseconds (about 100 packets of a
 * stream); past this bound the session's timer has fallen far behind and packets are left out rather than
 * held without limit.
 */
export const MAX_PENDING_PACKETS = 5_000;

/** What a stream recorder needs from its session: its clock, file names, the folder and the manifest. */
export type StreamRecorderContext = {
  /** Session time (ms since its start) of a `performance.now()` reading. */
  sessionMs(at: number): number;
  /** A new file's track id and name, e.g. `webcamVideo-3` and `webcamVideo-3.webm`. */
  nextFile(kind: StreamKind): { track: string; file: string };
  append(file: string, bytes: Buffer): void;
  /** The file is complete once its patches are written. */
  finish(file: string, patches: Promise<{ position: number; bytes: Buffer }[]>): void;
  event(event: RecordingEvent): void;
};

type Current = { layer: Layer; track: string; file: string; writer: WebmWriter };

/**
 * Records one stream the teacher publishes: a new file for each continuous stretch (from a keyframe for video),
 * of the best simulcast layer arriving. On the forwarding path it only keeps the packet; the session's timer
 * calls {@link drain}, which chooses the layer, starts and ends files, and feeds werift's muxer.
 *
 * A layer switch ends the file and starts the next one at the new layer's keyframe (a file has one picture
 * size); until that keyframe the old layer goes on being written.
 */
export class StreamRecorder {
  readonly kind: StreamKind;
  private readonly source: StreamSource;
  private readonly context: StreamRecorderContext;
  private pending: Pending[] = [];
  private current: Current | null = null;
  /** The layer whose keyframe is awaited to start the next file, if any. */
  private awaited: Layer | null = null;
  private recording = true;
  private leftOut = 0;
  private readonly unsubscribe: () => void;

  constructor(source: StreamSource, context: StreamRecorderContext) {
    this.kind = source.kind;
    this.source = source;
    this.context = context;
    this.unsubscribe = source.packet.subscribe((layer, packet, keyframeStart) => {
      if (!this.recording) return;
      if (this.pending.length >= MAX_PENDING_PACKETS) this.leftOut += 1;
      else this.pending.push({ layer, packet, keyframeStart, at: performance.now() });
    });
  }

  /** Packets left out because drains fell behind. */
  get packetsLeftOut(): number {
    return this.leftOut;
  }

  /** Writes the packets kept since the last drain. */
  drain(now = performance.now()): void {
    const packets = this.pending;
    this.pending = [];
    if (packets.length === 0) return;
    const best = this.bestLayer(now);
    if (best !== this.current?.layer && best !== this.awaited) {
      this.awaited = best;
      this.source.requestKeyframe(best);
    }
    for (const p of packets) {
      if (this.awaited === p.layer && p.keyframeStart) this.startFile(p);
      else if (this.current?.layer === p.layer) this.current.writer.write(p.packet);
    }
  }

  /** Stops recording (pause, stream closed, session end): the current file ends at `at`. */
  stop(at = performance.now()): void {
    this.drain(at);
    this.recording = false;
    this.pending = [];
    this.awaited = null;
    this.endFile(at);
  }

  /** Records again after {@link stop} (resume): a new file from the next keyframe. */
  restart(): void {
    if (this.source.isClosedNow) return;
    this.recording = true;
  }

  /** Stops for good and releases the stream. Idempotent. */
  close(at = performance.now()): void {
    this.stop(at);
    this.unsubscribe();
  }

  private bestLayer(now: number): Layer {
    if (this.source.media === 'audio' || !this.source.simulcast) return 'f';
    return this.source.availableLayers(now).at(-1) ?? this.current?.layer ?? 'q';
  }

  private startFile(p: Pending): void {
    this.endFile(p.at);
    this.awaited = null;
    const { track, file } = this.context.nextFile(this.kind);
    const media = this.source.media;
    const writer = new WebmWriter({
      media,
      size: media === 'video' ? (vp8KeyframeSize(p.packet.payload) ?? undefined) : undefined,
      output: (bytes) => this.context.append(file, bytes),
      lost: () => this.source.requestKeyframe(p.layer),
    });
    this.current = { layer: p.layer, track, file, writer };
    this.context.event({
      type: 'track',
      t: this.context.sessionMs(p.at),
      track,
      kind: this.kind,
      file,
      codec: media === 'video' ? 'vp8' : 'opus',
    });
    writer.write(p.packet);
  }

  private endFile(at: number): void {
    const current = this.current;
    if (!current) return;
    this.current = null;
    this.context.event({ type: 'trackEnd', t: this.context.sessionMs(at), track: current.track });
    this.context.finish(current.file, current.writer.end());
  }
}
