import {
  RtcpReceiverInfo,
  RtcpRrPacket,
  SrtpAuthenticationError,
  type RTCDtlsTransport,
  type RTCPeerConnection,
} from 'werift';
import { answerTo, createClientPeerConnection } from '../apps/media/test/werift-clients.ts';

/** Receiver reports go out this often, like a browser's. */
const REPORT_INTERVAL_MS = 1_000;

/** What arrived on one stream: counts from the clear RTP header only. */
export type StreamCount = {
  received: number;
  /** Sequence numbers never received between the first and the highest (extended over the wraparound). */
  lost: number;
  /** When its first packet arrived (performance.now()), or null. */
  firstAt: number | null;
};

type Tracker = {
  kind: string;
  received: number;
  firstSeq: number | null;
  highest: number;
  reportedExpected: number;
  reportedReceived: number;
  firstAt: number | null;
};

/**
 * Thrown back to werift for every RTP packet, so that it drops the packet (as it drops one that fails
 * authentication) without decrypting it. One instance: nothing is allocated per packet.
 */
const NOT_DECRYPTED = new SrtpAuthenticationError('counted from its header, not decrypted');

/**
 * A benchmark student that costs little CPU: werift does the real ICE and DTLS (and SRTCP), but RTP is counted
 * from its header, which SRTP leaves in clear (SSRC, sequence number), and never decrypted. The SSRC of each
 * stream comes from the SFU's offer (`a=ssrc` under each m-line). It sends a receiver report per second, like a
 * browser, so the SFU's downstream estimate and layer choice run as they would.
 *
 * The first packet of the webcam stream is the start of a keyframe: the SFU forwards video to a student only
 * from a keyframe on (its media tests check that on decrypted payloads), so its arrival is the first frame.
 */
export class LightStudent {
  readonly pc: RTCPeerConnection;
  /** When ICE and DTLS completed (performance.now()), for the breakdown of the join. */
  iceConnectedAt: number | null = null;
  dtlsConnectedAt: number | null = null;
  readonly #trackers = new Map<number, Tracker>();
  /** Microphone packets: arrival time less RTP time (48 kHz) per packet, and the least seen, in ms. */
  #audioFirstTimestamp: number | null = null;
  #leastAudioOffset = Infinity;
  #audioDelays: number[] | null = null;
  readonly #reportSsrc = 1 + Math.floor(Math.random() * 0xfffffffe);
  #timer: NodeJS.Timeout | null = null;
  #collecting = false;

  /** `address`: the local address for ICE (127.0.0.1 unless told). */
  constructor(address?: string) {
    this.pc = createClientPeerConnection('student', address);
    this.pc.iceConnectionStateChange.subscribe((state) => {
      if (state === 'connected') this.iceConnectedAt ??= performance.now();
    });
  }

  /** Answers the SFU's offer; `kindByMid` names the stream of each m-line (from the `consume` answer). */
  async answer(offer: string, kindByMid: Map<string, string>): Promise<string> {
    for (const [mid, ssrcs] of ssrcsByMid(offer)) {
      const kind = kindByMid.get(mid);
      if (kind === undefined) continue;
      for (const ssrc of ssrcs) {
        if (this.#trackers.has(ssrc)) continue;
        this.#trackers.set(ssrc, {
          kind,
          received: 0,
          firstSeq: null,
          highest: 0,
          reportedExpected: 0,
          reportedReceived: 0,
          firstAt: null,
        });
      }
    }
    return answerTo(this.pc, offer, () => {
      for (const dtls of this.pc.dtlsTransports) this.#countInsteadOfDecrypting(dtls);
    });
  }

  /** Per stream kind: packets received and lost, and when the first arrived. */
  counts(): Record<string, StreamCount> {
    // Summed per kind: an m-line may announce several SSRCs (Janus adds an RTX one under each video m-line).
    const out: Record<string, StreamCount> = {};
    for (const t of this.#trackers.values()) {
      const expected = t.firstSeq === null ? 0 : t.highest - t.firstSeq + 1;
      const sum = out[t.kind] ?? { received: 0, lost: 0, firstAt: null };
      sum.received += t.received;
      sum.lost += Math.max(0, expected - t.received);
      if (t.firstAt !== null) sum.firstAt = Math.min(sum.firstAt ?? Infinity, t.firstAt);
      out[t.kind] = sum;
    }
    return out;
  }

  /**
   * Starts (true) or stops collecting how much later than the earliest one each microphone packet arrived, in
   * ms: time spent queued on the way (the teacher sends one every 20 ms).
   */
  collectDelays(on: boolean): void {
    if (on) this.#audioDelays = [];
    this.#collecting = on;
  }

  /** The delays collected. */
  get delays(): number[] {
    return this.#audioDelays ?? [];
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.pc.close();
  }

  #countInsteadOfDecrypting(dtls: RTCDtlsTransport): void {
    // werift creates the SRTP session when DTLS completes, then reports `connected` in the same turn: the
    // replacement is in place before the first packet is handled.
    dtls.onStateChange.subscribe((state) => {
      if (state !== 'connected') return;
      this.dtlsConnectedAt ??= performance.now();
      dtls.srtp.decrypt = (packet: Buffer) => {
        this.#count(packet);
        throw NOT_DECRYPTED;
      };
      this.#timer ??= setInterval(() => this.#report(dtls), REPORT_INTERVAL_MS);
    });
  }

  #count(packet: Buffer): void {
    if (packet.length < 12) return;
    const tracker = this.#trackers.get(packet.readUInt32BE(8));
    if (!tracker) return;
    const seq = packet.readUInt16BE(2);
    tracker.received += 1;
    if (tracker.kind === 'webcamAudio') this.#audioArrived(packet.readUInt32BE(4));
    if (tracker.firstSeq === null) {
      tracker.firstSeq = seq;
      tracker.highest = seq;
      tracker.firstAt = performance.now();
      return;
    }
    // Extend the sequence number relative to the highest so far (within half the space either way).
    const delta = ((seq - (tracker.highest & 0xffff) + 0x8000) & 0xffff) - 0x8000;
    if (delta > 0) tracker.highest += delta;
  }

  #audioArrived(timestamp: number): void {
    this.#audioFirstTimestamp ??= timestamp;
    const offset = performance.now() - ((timestamp - this.#audioFirstTimestamp) >>> 0) / 48;
    this.#leastAudioOffset = Math.min(this.#leastAudioOffset, offset);
    if (this.#collecting) this.#audioDelays?.push(offset - this.#leastAudioOffset);
  }

  #report(dtls: RTCDtlsTransport): void {
    const reports: RtcpReceiverInfo[] = [];
    for (const [ssrc, t] of this.#trackers) {
      if (t.firstSeq === null) continue;
      const expected = t.highest - t.firstSeq + 1;
      const intervalExpected = expected - t.reportedExpected;
      const intervalLost = Math.max(0, intervalExpected - (t.received - t.reportedReceived));
      t.reportedExpected = expected;
      t.reportedReceived = t.received;
      reports.push(
        new RtcpReceiverInfo({
          ssrc,
          fractionLost:
            intervalExpected > 0 ? Math.min(255, Math.floor((256 * intervalLost) / intervalExpected)) : 0,
          packetsLost: Math.max(0, expected - t.received),
          highestSequence: t.highest >>> 0,
          jitter: 0,
          lsr: 0,
          dlsr: 0,
        }),
      );
    }
    if (reports.length === 0) return;
    dtls
      .sendRtcp([new RtcpRrPacket({ ssrc: this.#reportSsrc, reports })])
      .catch((error: unknown) => console.error('bench student: a receiver report failed', error));
  }
}

/** The SSRCs the SFU announced under each m-line of its offer. */
export function ssrcsByMid(sdp: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const section of sdp.split(/\r?\nm=/).slice(1)) {
    const mid = /^a=mid:(\S+)/m.exec(section)?.[1];
    if (mid === undefined) continue;
    const ssrcs = [...section.matchAll(/^a=ssrc:(\d+) /gm)].map((m) => Number(m[1]));
    out.set(mid, [...new Set(ssrcs)]);
  }
  return out;
}
