import { RtpHeader, type RTCPeerConnection, type RTCRtpTransceiver } from 'werift';
import { LAYERS, type Layer } from '@sea/contract/live';
import {
  acceptAnswer,
  addTeacherTransceivers,
  createClientPeerConnection,
  offerOf,
  onFeedback,
  streamExtensions,
} from '../../apps/media/test/werift-clients.ts';
import type { Vp8Track } from './vp8-recording.ts';

/** Largest VP8 payload per packet after the descriptor (Chrome's packets carried up to about 1 180 bytes). */
const MAX_PAYLOAD_BYTES = 1_180;
const FRAME_INTERVAL_MS = 1000 / 30;
/** Opus: one packet per 20 ms, about 60 bytes (what Chrome sent for the fake microphone). */
const AUDIO_INTERVAL_MS = 20;
const AUDIO_PAYLOAD_BYTES = 60;
const HISTORY_PACKETS = 4_000;

type VideoStream = {
  transceiver: RTCRtpTransceiver;
  /** The rid header extension, or null for the single-layer screen (routed by its signalled SSRC). */
  rid: Layer | null;
  ssrc: number;
  track: Vp8Track;
  next: number;
  seq: number;
  /** The RTP timestamp at the teacher's start (random, as a browser's). */
  timestampBase: number;
  pictureId: number;
  keyframeDue: boolean;
};

/**
 * The teacher of the benchmark: a werift publisher that replays real VP8 (recorded with Chromium's encoder at
 * the bitrates Chrome sends) as a browser would send it: webcam video as three simulcast layers (own SSRCs, the
 * mid and rid header extensions), a single-layer screen, and two Opus streams (50 packets/s). Each video stream
 * loops its recording, which starts with a keyframe, and restarts from it on a PLI; NACKed packets are sent
 * again. Browser students decode what it sends.
 */
export class RecordedTeacher {
  readonly pc: RTCPeerConnection;
  readonly video: RTCRtpTransceiver;
  readonly audio: RTCRtpTransceiver;
  readonly screen: RTCRtpTransceiver;
  readonly systemAudio: RTCRtpTransceiver;
  /** Keyframes sent because of a PLI. */
  plis = 0;
  /** Packets sent per stream (q, h, f, screen, webcamAudio, screenShareAudio), retransmissions not counted. */
  readonly sent = new Map<string, number>();
  private readonly streams: VideoStream[];
  private readonly audioSeq = new Map<RTCRtpTransceiver, number>();
  private readonly history = new Map<string, { header: RtpHeader; payload: Buffer }>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly startedAt = performance.now();

  /** `tracks` holds the recordings named q, h, f and screen; `address` is the local address for ICE. */
  constructor(tracks: Vp8Track[], address?: string) {
    this.pc = createClientPeerConnection('teacher', address);
    const { video, audio, screen, systemAudio } = addTeacherTransceivers(this.pc, true);
    if (!screen || !systemAudio) throw new Error('no screen m-lines');
    this.video = video;
    this.audio = audio;
    this.screen = screen;
    this.systemAudio = systemAudio;
    const track = (name: string) => {
      const found = tracks.find((t) => t.name === name);
      if (!found || found.frames[0]?.key !== true)
        throw new Error(`no recording of ${name} starting at a keyframe`);
      return found;
    };
    const stream = (transceiver: RTCRtpTransceiver, rid: Layer | null, ssrc: number, name: string) => ({
      transceiver,
      rid,
      ssrc,
      track: track(name),
      next: 0,
      seq: Math.floor(Math.random() * 0xffff),
      timestampBase: Math.floor(Math.random() * 0xffffffff),
      pictureId: Math.floor(Math.random() * 0x7fff),
      keyframeDue: true,
    });
    this.streams = [
      ...LAYERS.map((layer, i) => stream(this.video, layer, 0x2000 + i, layer)),
      stream(this.screen, null, this.screen.sender.ssrc, 'screen'),
    ];
  }

  offer(): Promise<string> {
    return offerOf(this.pc);
  }

  accept(answer: string): Promise<void> {
    return acceptAnswer(this.pc, answer, () => this.listen());
  }

  /** Starts sending every stream. */
  start(): void {
    if (this.timers.length > 0) return;
    this.timers.push(
      setInterval(() => {
        for (const stream of this.streams) this.sendFrame(stream);
      }, FRAME_INTERVAL_MS),
      setInterval(() => {
        this.sendAudio(this.audio);
        this.sendAudio(this.systemAudio);
      }, AUDIO_INTERVAL_MS),
    );
  }

  async close(): Promise<void> {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    await this.pc.close();
  }

  private sendFrame(stream: VideoStream): void {
    if (stream.keyframeDue) stream.next = 0;
    stream.keyframeDue = false;
    const frame = stream.track.frames[stream.next];
    stream.next = (stream.next + 1) % stream.track.frames.length;
    if (!frame) return;
    const payloadType = stream.transceiver.codecs[0]?.payloadType ?? 96;
    // Capture time on the 90 kHz clock, from the wall clock as a browser does (timer drift stays out of it).
    const timestamp = (stream.timestampBase + Math.round((performance.now() - this.startedAt) * 90)) >>> 0;
    const extensions = streamExtensions(stream.transceiver, stream.rid);
    for (let offset = 0; offset < frame.data.length; offset += MAX_PAYLOAD_BYTES) {
      const first = offset === 0;
      const end = Math.min(frame.data.length, offset + MAX_PAYLOAD_BYTES);
      // VP8 payload descriptor (RFC 7741): X, S on a frame's first packet, partition 0; 15-bit picture id.
      const descriptor = Buffer.from([
        first ? 0x90 : 0x80,
        0x80,
        0x80 | (stream.pictureId >> 8),
        stream.pictureId & 0xff,
      ]);
      const header = new RtpHeader({
        payloadType,
        ssrc: stream.ssrc,
        sequenceNumber: stream.seq,
        timestamp,
        marker: end === frame.data.length,
        extensions,
      });
      this.send(stream.transceiver, header, Buffer.concat([descriptor, frame.data.subarray(offset, end)]));
      this.count(stream.track.name);
      stream.seq = (stream.seq + 1) & 0xffff;
    }
    stream.pictureId = (stream.pictureId + 1) & 0x7fff;
  }

  private count(stream: string): void {
    this.sent.set(stream, (this.sent.get(stream) ?? 0) + 1);
  }

  private sendAudio(audio: RTCRtpTransceiver): void {
    const seq = this.audioSeq.get(audio) ?? 1;
    this.audioSeq.set(audio, (seq + 1) & 0xffff);
    const header = new RtpHeader({
      payloadType: audio.codecs[0]?.payloadType ?? 111,
      ssrc: audio.sender.ssrc,
      sequenceNumber: seq,
      timestamp: Math.round((performance.now() - this.startedAt) * 48) >>> 0,
      extensions: streamExtensions(audio, null),
    });
    // An Opus TOC byte (CELT, 20 ms, one frame) and filler: a decoder takes it as a (noisy) frame.
    const payload = Buffer.alloc(AUDIO_PAYLOAD_BYTES, seq & 0xff);
    payload[0] = 0xf8;
    void audio.dtlsTransport.sendRtp(payload, header);
    this.count(audio === this.audio ? 'webcamAudio' : 'screenShareAudio');
  }

  private send(transceiver: RTCRtpTransceiver, header: RtpHeader, payload: Buffer): void {
    const key = `${header.ssrc}:${header.sequenceNumber}`;
    this.history.set(key, { header, payload });
    if (this.history.size > HISTORY_PACKETS) this.history.delete(this.history.keys().next().value ?? '');
    void transceiver.dtlsTransport.sendRtp(payload, header);
  }

  /** A PLI restarts its stream's recording from the keyframe; a NACK is answered from the history. */
  private listen(): void {
    onFeedback(this.video.dtlsTransport, {
      pli: (ssrc) => {
        const stream = this.streams.find((s) => s.ssrc === ssrc);
        if (stream && !stream.keyframeDue) {
          stream.keyframeDue = true;
          this.plis += 1;
        }
      },
      nack: (ssrc, lost) => {
        for (const seq of lost) {
          const original = this.history.get(`${ssrc}:${seq}`);
          if (original) void this.video.dtlsTransport.sendRtp(original.payload, original.header);
        }
      },
    });
  }
}
