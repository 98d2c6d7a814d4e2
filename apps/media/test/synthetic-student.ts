import {
  PictureLossIndication,
  RtcpPayloadSpecificFeedback,
  SrtpAuthenticationError,
  type RTCDtlsTransport,
  type RtpPacket,
} from 'werift';
import type { Layer } from '@sea/contract/live';
import { isVp8KeyframeStart } from '../src/forwarding/vp8.ts';
import { SPEAKER_MARK_OFFSET } from './synthetic-speaker.ts';
import { readMarker } from './synthetic-teacher.ts';
import { answerTo, createClientPeerConnection } from './werift-clients.ts';

/** Thrown back to werift for a packet the network "lost". */
const LOST = new SrtpAuthenticationError('lost on the way (test)');

/** One packet as a student received it. */
export type Received = {
  seq: number;
  timestamp: number;
  ssrc: number;
  layer: Layer | null;
  frame: number | null;
  /** The VP8 descriptor's picture id and TL0PICIDX as the synthetic teacher writes them (null without). */
  pictureId: number | null;
  tl0: number | null;
  keyframeStart: boolean;
  extensionIds: number[];
  /** The payload's size in bytes. */
  bytes: number;
  /** The payload's byte where a synthetic speaker writes its mark (meaningless for other streams). */
  speakerMark: number | null;
  at: number;
};

/**
 * A student built on werift: answers the SFU's offers and records, per m-line (`mid`), every packet it gets,
 * with the layer and frame the synthetic teacher wrote into it.
 */
export class SyntheticStudent {
  readonly pc = createClientPeerConnection('student');
  readonly byMid = new Map<string, Received[]>();
  private readonly watchedTracks = new Set<string>();
  private lose: ((seq: number) => boolean) | null = null;
  private readonly lossy = new Set<RTCDtlsTransport>();

  constructor() {
    this.pc.onTrack.subscribe((track) => {
      if (this.watchedTracks.has(track.uuid)) return;
      this.watchedTracks.add(track.uuid);
      const transceiver = this.pc.getTransceivers().find((t) => t.receiver.tracks.includes(track));
      const mid = transceiver?.mid ?? '?';
      track.onReceiveRtp.subscribe((packet) => this.record(mid, packet));
    });
  }

  answer(offer: string): Promise<string> {
    return answerTo(this.pc, offer);
  }

  /**
   * Loses the incoming RTP packets whose sequence number `lose` picks (their retransmissions too), as a lossy
   * network would before they reach werift, which then reports the loss in its own receiver reports; `null` ends
   * the loss. Call once connected.
   */
  loseIncoming(lose: ((seq: number) => boolean) | null): void {
    this.lose = lose;
    for (const transceiver of this.pc.getTransceivers()) {
      const dtls = transceiver.dtlsTransport;
      if (this.lossy.has(dtls)) continue;
      this.lossy.add(dtls);
      const decrypt = dtls.srtp.decrypt.bind(dtls.srtp);
      dtls.srtp.decrypt = (packet: Buffer) => {
        // SRTP leaves the header in clear; werift drops a packet that fails authentication, as lost.
        if (this.lose?.(packet.readUInt16BE(2))) throw LOST;
        return decrypt(packet);
      };
    }
  }

  packets(mid: string): Received[] {
    return this.byMid.get(mid) ?? [];
  }

  /** Sends a PLI for what arrives on `mid`, as a browser does when it cannot decode. */
  async sendPli(mid: string): Promise<void> {
    const transceiver = this.pc.getTransceivers().find((t) => t.mid === mid);
    const ssrc = this.packets(mid).at(-1)?.ssrc;
    if (!transceiver || ssrc === undefined) throw new Error(`nothing received on ${mid}`);
    const pli = new RtcpPayloadSpecificFeedback({
      feedback: new PictureLossIndication({ senderSsrc: transceiver.receiver.rtcpSsrc, mediaSsrc: ssrc }),
    });
    await transceiver.dtlsTransport.sendRtcp([pli]);
  }

  async close(): Promise<void> {
    await this.pc.close();
  }

  private record(mid: string, packet: RtpPacket): void {
    const marker = readMarker(packet.payload);
    const list = this.byMid.get(mid) ?? [];
    list.push({
      seq: packet.header.sequenceNumber,
      timestamp: packet.header.timestamp,
      ssrc: packet.header.ssrc,
      layer: marker?.layer ?? null,
      frame: marker?.frame ?? null,
      ...vp8Numbers(packet.payload),
      keyframeStart: isVp8KeyframeStart(packet.payload),
      extensionIds: packet.header.extensions.map((e) => e.id),
      bytes: packet.payload.length,
      speakerMark: packet.payload[SPEAKER_MARK_OFFSET] ?? null,
      at: performance.now(),
    });
    this.byMid.set(mid, list);
  }
}

/** Picture id and TL0PICIDX of a descriptor laid out as the synthetic teacher's (X; I, L, T; 15-bit id). */
function vp8Numbers(payload: Buffer): { pictureId: number | null; tl0: number | null } {
  const [first = 0, flags = 0, high = 0, low = 0, tl0 = 0] = payload;
  if ((first & 0x80) === 0 || (flags & 0xc0) !== 0xc0 || (high & 0x80) === 0 || payload.length < 5) {
    return { pictureId: null, tl0: null };
  }
  return { pictureId: ((high & 0x7f) << 8) | low, tl0 };
}
