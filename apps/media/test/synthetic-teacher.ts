import { RtpHeader, type RTCRtpTransceiver } from 'werift';
import { LAYERS, type Layer } from '@sea/contract/live';
import {
  acceptAnswer,
  addTeacherTransceivers,
  createClientPeerConnection,
  offerOf,
  onFeedback,
  streamExtensions,
} from './werift-clients.ts';

/** Marker at the end of every synthetic payload: 0xee, layer index, frame number (uint32). */
export const MARKER = 0xee;
export function readMarker(payload: Buffer): { layer: Layer; frame: number } | null {
  if (payload.length < 6 || payload[payload.length - 6] !== MARKER) return null;
  const layer = LAYERS[payload[payload.length - 5] ?? -1];
  return layer ? { layer, frame: payload.readUInt32BE(payload.length - 4) } : null;
}

const PACKET_BYTES: Record<Layer, number> = { q: 150, h: 400, f: 1000 };

type Stream = {
  layer: Layer;
  /** The rid header extension to send, or null for a single-layer stream (routed by its signalled SSRC). */
  rid: Layer | null;
  transceiver: RTCRtpTransceiver;
  ssrc: number;
  seq: number;
  timestamp: number;
  /** The stream's first timestamp, which a wall-clock timestamp counts from. */
  firstTimestamp: number;
  frame: number;
  /** VP8 picture id (15 bits) and TL0PICIDX of the next frame: each layer numbers its own, as Chrome's do. */
  pictureId: number;
  tl0: number;
  keyframeDue: boolean;
};

/** Where each layer's numbering starts: far apart, and f near both wraparounds. */
const PICTURE_ID_START: Record<Layer, number> = { q: 0x0123, h: 0x5a5a, f: 0x7ff0 };
const TL0_START: Record<Layer, number> = { q: 3, h: 0x80, f: 0xfd };

/**
 * A publisher built on werift that behaves like the teacher's browser on the wire: one simulcast video m-line
 * (rids q/h/f, each its own SSRC, the rid and mid header extensions on every packet), one audio m-line, VP8
 * payloads with correct descriptors and keyframe flags (a keyframe on a PLI, or every `keyframeEvery` frames).
 * It records the SFU's feedback: PLIs, NACKs and REMBs, and can drop chosen packets. Its RTP timestamps step
 * one frame per frame sent, or with `wallClock` follow the time since it started as a browser's capture clock
 * does (a recording's media then lasts as long as the lecture did, even when a busy machine sends fewer frames).
 */
export class SyntheticTeacher {
  readonly pc = createClientPeerConnection('teacher');
  readonly video: RTCRtpTransceiver;
  readonly audio: RTCRtpTransceiver;
  /** With `screen`: a single-layer screen video and the system audio, like the browser's screen share. */
  readonly screen: RTCRtpTransceiver | null;
  readonly systemAudio: RTCRtpTransceiver | null;
  readonly plis: { ssrc: number; at: number }[] = [];
  readonly nacks: { ssrc: number; lost: number[] }[] = [];
  readonly rembs: number[] = [];
  readonly streams: Stream[];
  /** Whether a PLI brings a keyframe (a test turns it off to see what a student gets without one). */
  answerPlis = true;
  private readonly sent = new Map<string, { header: RtpHeader; payload: Buffer }>();
  private timer: NodeJS.Timeout | null = null;
  private audioSeq = 1;
  private drop: (layer: Layer, seq: number) => boolean = () => false;
  private readonly keyframeEvery: number;
  /** With `wallClock`: when the first frame went (performance.now()); null before, or without. */
  private clockStart: number | null = null;
  private readonly wallClock: boolean;

  constructor(keyframeEvery = 1_000, options: { screen?: boolean; wallClock?: boolean } = {}) {
    this.keyframeEvery = keyframeEvery;
    this.wallClock = options.wallClock === true;
    ({
      video: this.video,
      audio: this.audio,
      screen: this.screen,
      systemAudio: this.systemAudio,
    } = addTeacherTransceivers(this.pc, options.screen === true));
    const video = this.video;
    this.streams = LAYERS.map((layer, i) => ({
      layer,
      rid: layer,
      transceiver: video,
      ssrc: 0x1000 + i,
      seq: 65_500 + i * 7, // near the wraparound on purpose
      timestamp: 1000 * (i + 1),
      firstTimestamp: 1000 * (i + 1),
      frame: 0,
      pictureId: PICTURE_ID_START[layer],
      tl0: TL0_START[layer],
      keyframeDue: true,
    }));
    const screen = this.screen;
    if (screen) {
      this.streams.push({
        layer: 'f',
        rid: null,
        transceiver: screen,
        ssrc: screen.sender.ssrc,
        seq: 100,
        timestamp: 5000,
        firstTimestamp: 5000,
        frame: 0,
        pictureId: 0x2000,
        tl0: 0x40,
        keyframeDue: true,
      });
    }
  }

  offer(): Promise<string> {
    return offerOf(this.pc);
  }

  accept(answer: string): Promise<void> {
    return acceptAnswer(this.pc, answer, () => this.listen());
  }

  /** Records the SFU's feedback: a PLI asks for a keyframe, a NACK is answered from the packets sent. */
  private listen(): void {
    onFeedback(this.video.dtlsTransport, {
      pli: (ssrc) => {
        this.plis.push({ ssrc, at: performance.now() });
        const stream = this.streams.find((s) => s.ssrc === ssrc);
        if (stream && this.answerPlis) stream.keyframeDue = true;
      },
      remb: (bitrate) => this.rembs.push(bitrate),
      nack: (ssrc, lost) => {
        this.nacks.push({ ssrc, lost });
        for (const seq of lost) {
          const original = this.sent.get(`${ssrc}:${seq}`);
          if (original) void this.video.dtlsTransport.sendRtp(original.payload, original.header);
        }
      },
    });
  }

  /** Packets for which `drop` answers true are not sent the first time (kept for retransmission). */
  dropWhen(drop: (layer: Layer, seq: number) => boolean): void {
    this.drop = drop;
  }

  /** Sends frames at `fps` on every layer, and audio, until {@link stop}. */
  start(fps = 30): void {
    this.timer ??= setInterval(() => this.frame(), Math.round(1000 / fps));
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Like a browser whose webcam is switched off and on: a new encoder, so every layer starts a new numbering
   * (here picture ids and TL0PICIDX well behind the old ones) with a keyframe.
   */
  restartVideo(): void {
    for (const stream of this.streams) {
      if (stream.transceiver !== this.video) continue;
      stream.pictureId = (stream.pictureId - 0x1000) & 0x7fff;
      stream.tl0 = (stream.tl0 - 0x40) & 0xff;
      stream.keyframeDue = true;
    }
  }

  ssrcOf(layer: Layer): number {
    const stream = this.streams.find((s) => s.layer === layer);
    if (!stream) throw new Error(layer);
    return stream.ssrc;
  }

  async close(): Promise<void> {
    this.stop();
    await this.pc.close();
  }

  private frame(): void {
    const elapsedMs = this.wallClock ? performance.now() - (this.clockStart ??= performance.now()) : null;
    for (const stream of this.streams) {
      if (elapsedMs !== null) stream.timestamp = (stream.firstTimestamp + Math.round(elapsedMs * 90)) >>> 0;
      this.sendFrame(stream);
    }
    this.sendAudio(this.audio, elapsedMs);
    if (this.systemAudio) this.sendAudio(this.systemAudio, elapsedMs);
  }

  private sendFrame(stream: Stream): void {
    const keyframe = stream.keyframeDue || (stream.frame > 0 && stream.frame % this.keyframeEvery === 0);
    stream.keyframeDue = false;
    const packets = keyframe ? 3 : 1;
    const payloadType = stream.transceiver.codecs[0]?.payloadType ?? 96;
    // Two temporal layers: every other frame (never a keyframe) is TID 1 on the base frame before it.
    const tid = keyframe || stream.frame % 2 === 0 ? 0 : 1;
    if (tid === 0 && stream.frame > 0) stream.tl0 = (stream.tl0 + 1) & 0xff;
    const { pictureId, tl0 } = stream;
    for (let i = 0; i < packets; i += 1) {
      const first = i === 0;
      // X; I, L, T; the 15-bit picture id; TL0PICIDX; TID (with Y set on TID 1, as libvpx does).
      const descriptor = [
        first ? 0x90 : 0x80,
        0xe0,
        0x80 | (pictureId >> 8),
        pictureId & 0xff,
        tl0,
        tid === 0 ? 0 : 0x60,
      ];
      const vp8 = first
        ? keyframe
          ? [0x50, 0x42, 0x00, 0x9d, 0x01, 0x2a, 0x00, 0x05, 0xd0, 0x02]
          : [0x51, 0x42, 0x00]
        : [];
      const body = Buffer.alloc(PACKET_BYTES[stream.layer] - descriptor.length - vp8.length - 6, 0x5a);
      const marker = Buffer.alloc(6);
      marker[0] = MARKER;
      marker[1] = LAYERS.indexOf(stream.layer);
      marker.writeUInt32BE(stream.frame, 2);
      const payload = Buffer.concat([Buffer.from(descriptor), Buffer.from(vp8), body, marker]);
      const header = new RtpHeader({
        payloadType,
        ssrc: stream.ssrc,
        sequenceNumber: stream.seq,
        timestamp: stream.timestamp,
        marker: i === packets - 1,
        extensions: streamExtensions(stream.transceiver, stream.rid),
      });
      this.sent.set(`${stream.ssrc}:${stream.seq}`, { header, payload });
      if (this.sent.size > 3000) this.sent.delete(this.sent.keys().next().value ?? '');
      if (stream.rid === null || !this.drop(stream.layer, stream.seq)) {
        void stream.transceiver.dtlsTransport.sendRtp(payload, header);
      }
      stream.seq = (stream.seq + 1) & 0xffff;
    }
    stream.frame += 1;
    stream.pictureId = (stream.pictureId + 1) & 0x7fff;
    stream.timestamp = (stream.timestamp + 3000) >>> 0;
  }

  private sendAudio(audio: RTCRtpTransceiver, elapsedMs: number | null): void {
    const header = new RtpHeader({
      payloadType: audio.codecs[0]?.payloadType ?? 111,
      ssrc: audio.sender.ssrc,
      sequenceNumber: this.audioSeq,
      // 20 ms of Opus per packet would be 960; the synthetic audio goes with the 30 fps frames: 1600 per packet.
      timestamp: elapsedMs === null ? this.audioSeq * 1600 : (1600 + Math.round(elapsedMs * 48)) >>> 0,
      extensions: [],
    });
    if (audio === this.audio) this.audioSeq = (this.audioSeq + 1) & 0xffff;
    // An Opus packet a parser accepts: TOC 0xf8 (CELT fullband, 20 ms, mono, one frame), then its bytes.
    const payload = Buffer.alloc(80, 0x11);
    payload[0] = 0xf8;
    void audio.dtlsTransport.sendRtp(payload, header);
  }
}
