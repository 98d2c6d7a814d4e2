import {
  GenericNack,
  PictureLossIndication,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  RtcpPayloadSpecificFeedback,
  RtcpTransportLayerFeedback,
  RtpHeader,
  serializeSdesMid,
  serializeSdesRTPStreamID,
  useNACK,
  usePLI,
  useREMB,
  useSdesMid,
  useSdesRTPStreamId,
  type RTCRtpTransceiver,
  type RtcpPacket,
} from 'werift';
import { LAYERS, type Layer } from '@sea/contract/live';
import { gatheredSdp, loopbackClient, setLocalWithoutStun } from '../../apps/media/test/synthetic-teacher.ts';
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
  readonly pc = new RTCPeerConnection({
    ...loopbackClient(),
    codecs: {
      audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48_000, channels: 2 })],
      video: [
        new RTCRtpCodecParameters({
          mimeType: 'video/VP8',
          clockRate: 90_000,
          rtcpFeedback: [useNACK(), usePLI(), useREMB(), { type: 'transport-cc' }],
        }),
      ],
    },
    headerExtensions: { audio: [useSdesMid()], video: [useSdesMid(), useSdesRTPStreamId()] },
  });
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

  /** `tracks` holds the recordings named q, h, f and screen. */
  constructor(tracks: Vp8Track[]) {
    this.video = this.pc.addTransceiver('video', {
      direction: 'sendonly',
      simulcast: LAYERS.map((rid) => ({ rid, direction: 'send' as const })),
    });
    this.audio = this.pc.addTransceiver('audio', { direction: 'sendonly' });
    this.screen = this.pc.addTransceiver('video', { direction: 'sendonly' });
    this.systemAudio = this.pc.addTransceiver('audio', { direction: 'sendonly' });
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

  async offer(): Promise<string> {
    await setLocalWithoutStun(this.pc, await this.pc.createOffer());
    return gatheredSdp(this.pc);
  }

  async accept(answer: string): Promise<void> {
    await this.pc.setRemoteDescription({ type: 'answer', sdp: answer });
    this.video.dtlsTransport.onRtcp.subscribe((packet) => this.onRtcp(packet));
    await this.pc.connectionStateChange.watch((state) => state === 'connected', 10_000);
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

  private extensions(transceiver: RTCRtpTransceiver, rid: Layer | null) {
    const ids = new Map(transceiver.headerExtensions.map((e) => [e.uri, e.id]));
    const out = [{ id: ids.get(useSdesMid().uri) ?? 0, payload: serializeSdesMid(transceiver.mid ?? '') }];
    if (rid) out.push({ id: ids.get(useSdesRTPStreamId().uri) ?? 0, payload: serializeSdesRTPStreamID(rid) });
    return out;
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
    const extensions = this.extensions(stream.transceiver, stream.rid);
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
      extensions: this.extensions(audio, null),
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

  private onRtcp(packet: RtcpPacket): void {
    if (packet instanceof RtcpPayloadSpecificFeedback && packet.feedback instanceof PictureLossIndication) {
      const ssrc = packet.feedback.mediaSsrc;
      const stream = this.streams.find((s) => s.ssrc === ssrc);
      if (stream && !stream.keyframeDue) {
        stream.keyframeDue = true;
        this.plis += 1;
      }
    } else if (packet instanceof RtcpTransportLayerFeedback && packet.feedback instanceof GenericNack) {
      const { mediaSourceSsrc, lost } = packet.feedback;
      for (const seq of lost) {
        const original = this.history.get(`${mediaSourceSsrc}:${seq}`);
        if (original) void this.video.dtlsTransport.sendRtp(original.payload, original.header);
      }
    }
  }
}
