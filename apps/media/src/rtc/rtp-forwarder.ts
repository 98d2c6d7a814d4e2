import { RtpHeader, RtpPacket, uint16Add, uint32Add, type RTCRtpSender } from 'werift';
import { descriptorOf, putDescriptor, withDescriptor } from '../forwarding/vp8-rewriter.ts';
import { log } from '../log.ts';
import {
  encryptGcm,
  gcmKeys,
  HeaderTemplate,
  type GcmKeys,
  type HeaderFields,
  type SrtpLocal,
} from './gcm-packet.ts';
import {
  absSendTimeId,
  absSendTimeValue,
  extensions,
  handlesAll,
  plannedExtensions,
  type Plan,
} from './header-extensions.ts';
import { sentNtp } from './ntp-time.ts';
import { rtpCounts } from './rtp-counts.ts';
import { RTP_HISTORY_SIZE, SentPacket } from './sent-packet.ts';
import type { IceConnection, SenderState } from './werift-internals.ts';

/**
 * Sends forwarded packets through one student's werift sender: the same packets werift's own
 * `sender.sendRtp(packet)` sends (SSRC, payload type, sequence numbers and timestamps continued across
 * `replaceRTP`, the student's mid header extension, its history for NACKs, its sender-report counters, SRTP).
 * The sender's private fields it moves are typed in `werift-internals.ts`, the extensions it writes are
 * `header-extensions.ts`'s, and each slot of the history is a `SentPacket` (`sent-packet.ts`). Its
 * differences from werift's path:
 *
 * - Synchronous and lean. werift's path goes through five async functions per packet, converts the clock to NTP
 *   through a string, sorts its bandwidth-estimation records, and sends each datagram after a DNS lookup tick;
 *   with a packet for every student that was about a fifth of the SFU's time (profile at 100 students). What
 *   depends only on the sender (its extension plan, its AES-GCM key and rollover state, its header's fixed
 *   bytes) is worked out once and kept here, not looked up per packet.
 * - A correct clock. werift 0.25.2's `ntpTime()` writes the decimal digits of the seconds' fraction as the NTP
 *   fraction, so its abs-send-time went backwards within a second and its sender reports carried a wrong time.
 *   Here both come from the wall clock as RFC 3550 and the abs-send-time draft define them.
 * - Its own AES-GCM. With AEAD_AES_128_GCM (what Chrome and werift negotiate first) the header is written from
 *   the numbers and encrypted here (`gcm-packet.ts`, byte for byte what werift's session would make), and the
 *   header, ciphertext and tag go out as one datagram without being concatenated; other profiles use werift's
 *   `srtp.encrypt`.
 *
 * Anything this path does not handle (RED, pending RTP, transport-wide sequence numbers or other header
 * extensions, a werift without these fields) goes through werift's own `sendRtp`; a TCP or TURN pair through
 * werift's own send. `rtp-forwarder.test.ts` checks the packets against werift's for the same input.
 */
export class RtpForwarder {
  private readonly sender: RTCRtpSender;
  /** The sender's extension list {@link plan} was made from (werift replaces the list at each renegotiation). */
  private planned: unknown = null;
  private plan: Plan | null = null;
  /** The SRTP session, SSRC, mid and plan {@link gcm} and {@link template} were made for. */
  private keyed: { srtp: unknown; ssrc: number; mid: string | undefined; plan: Plan } | null = null;
  private gcm: GcmKeys | null = null;
  private template: HeaderTemplate | null = null;

  constructor(sender: RTCRtpSender) {
    this.sender = sender;
  }

  /**
   * Sends one packet. `descriptor` (from `Vp8Rewriter.descriptorFor`, -1 for none) gives the VP8 numbers this
   * student gets instead of the packet's own; the packet is shared by every student of its layer and comes out
   * of here as it went in. `now` is `performance.now()` of the packet's turn.
   */
  forward(packet: RtpPacket, descriptor = -1, now = performance.now()): void {
    const s = this.sender as unknown as SenderState;
    const dtls = s.dtlsTransport;
    const plan = this.planOf(s);
    if (!plan) {
      rtpCounts.forwarded += 1;
      rtpCounts.forwardedBytes += packet.payload.length;
      const rtp =
        descriptor < 0 ? packet : new RtpPacket(packet.header, withDescriptor(packet.payload, descriptor));
      this.sender.sendRtp(rtp).catch((error: unknown) => log.error({ err: error }, 'forwarding failed'));
      return;
    }
    if (s.stopped || dtls?.state !== 'connected' || !s.codec) return;
    rtpCounts.forwarded += 1;
    rtpCounts.forwardedBytes += packet.payload.length;
    const payload = packet.payload;
    const original = packet.header;
    if (s.rtpContinuityPending) {
      if (s.sequenceNumber !== undefined && s.timestamp !== undefined) {
        s.seqOffset = uint16Add(uint16Add(s.sequenceNumber, 1), -original.sequenceNumber);
        s.timestampOffset = uint32Add(uint32Add(s.timestamp, s.pendingTimestampStep), -original.timestamp);
      }
      s.rtpContinuityPending = false;
      s.pendingTimestampStep = 1;
    }
    const fields: HeaderFields = {
      marker: original.marker,
      payloadType: s.codec.payloadType,
      sequenceNumber: uint16Add(original.sequenceNumber, s.seqOffset),
      timestamp: uint32Add(original.timestamp, s.timestampOffset),
      ssrc: s.ssrc,
    };
    s.timestamp = fields.timestamp;
    s.sequenceNumber = fields.sequenceNumber;
    const nowMs = TIME_ORIGIN + now;
    const abs = absSendTimeValue(nowMs);
    s.ntpTimestamp = sentNtp(nowMs);
    s.rtpTimestamp = fields.timestamp;
    s.octetCount += payload.length;
    s.packetCount = uint32Add(s.packetCount, 1);
    const slot = fields.sequenceNumber % RTP_HISTORY_SIZE;
    const plain = original.extensions.length === 0 && !original.padding && original.csrc.length === 0;
    const gcm = plain ? this.gcmOf(s, dtls.srtp, plan) : null;
    const template = this.template;
    let parts: Buffer[];
    if (gcm && template) {
      // AEAD AES-GCM (what browsers and werift negotiate first): the header written from the numbers, one
      // cipher, the three parts sent as one datagram without concatenating them.
      const head = template.write(fields, abs);
      s.headerBytesSent += head.length;
      SentPacket.at(s.rtpCache, slot).keepPlanned(fields, payload, descriptor, plan, s.mid, abs);
      parts = withNumbers(payload, descriptor, () => encryptGcm(gcm, head, fields, payload));
    } else {
      const own = extensions(plan, s.mid, original.extensions, abs);
      const header = new RtpHeader({ ...original, ...fields, extensions: own });
      s.headerBytesSent += header.serializeSize;
      SentPacket.at(s.rtpCache, slot).keep(fields, payload, descriptor, own, header);
      parts = [withNumbers(payload, descriptor, () => dtls.srtp.encrypt(payload, header))];
    }
    let length = 0;
    for (const part of parts) length += part.length;
    dtls.bytesSent += length;
    dtls.packetsSent += 1;
    send(dtls.iceTransport.connection, parts, length);
    // werift starts its sender reports from the first packet sent.
    if (!s.rtcpRunning)
      s.runRtcp().catch((error: unknown) => log.error({ err: error }, 'sender reports failed'));
  }

  /** The sender's extensions in id order, or null when this path cannot send for it. */
  private planOf(s: SenderState): Plan | null {
    if (
      s.pendingRtpEnabled ||
      s.redRedundantPayloadType ||
      s.dtlsTransport?.config?.debug?.outboundPacketLoss
    ) {
      return null;
    }
    if (this.planned === s.headerExtensions) return this.plan;
    const ok =
      Array.isArray(s.rtpCache) &&
      typeof s.seqOffset === 'number' &&
      typeof s.rtcpRunning === 'boolean' &&
      typeof s.dtlsTransport?.srtp?.encrypt === 'function' &&
      handlesAll(s.headerExtensions);
    this.planned = s.headerExtensions;
    this.plan = ok ? [...s.headerExtensions].sort((a, b) => a.id - b.id) : null;
    return this.plan;
  }

  /**
   * The AES-GCM key, salt and rollover state of the sender's SRTP session (a new session at each DTLS
   * handshake), null for another profile; made with the sender's {@link template} (null when its extensions do
   * not fit the one-byte form).
   */
  private gcmOf(s: SenderState, srtp: SrtpLocal, plan: Plan): GcmKeys | null {
    const keyed = this.keyed;
    if (keyed?.srtp === srtp && keyed.ssrc === s.ssrc && keyed.mid === s.mid && keyed.plan === plan) {
      return this.gcm;
    }
    this.keyed = { srtp, ssrc: s.ssrc, mid: s.mid, plan };
    this.gcm = gcmKeys(srtp, s.ssrc);
    this.template = HeaderTemplate.of(s.ssrc, plannedExtensions(plan, s.mid, 0), absSendTimeId(plan));
    return this.gcm;
  }
}

/** `performance.now()`'s zero on the wall clock (this thread's, fixed while it runs). */
const TIME_ORIGIN = performance.timeOrigin;

/**
 * Runs `encrypt` with the student's VP8 numbers in the shared payload: they go in only while it is encrypted
 * (synchronously, into new buffers), so no copy per student and packet; a retransmission copies (SentPacket).
 */
function withNumbers<T>(payload: Buffer, descriptor: number, encrypt: () => T): T {
  if (descriptor < 0) return encrypt();
  const own = descriptorOf(payload);
  putDescriptor(payload, descriptor);
  try {
    return encrypt();
  } finally {
    putDescriptor(payload, own);
  }
}

function send(connection: IceConnection, parts: Buffer[], length: number): void {
  if (!connection.canSendApplicationData()) return;
  const pair = connection.nominated;
  const transport = pair?.protocol.transport;
  if (!pair || transport?.closed) return;
  if (transport?.type !== 'udp' || !transport.socket) {
    // TCP or TURN: werift's own (asynchronous) send.
    const data = Buffer.concat(parts, length);
    connection.send(data).catch(() => undefined); // as werift: UDP-like, a lost packet is recovered by NACK/PLI
    return;
  }
  const [address, port] = pair.remoteAddr;
  // Like werift's own send: a failed datagram is not reported (UDP; the student's NACK or PLI recovers). The
  // parts go out as one datagram (sendmsg with a vector).
  transport.socket.send(parts, port, address);
  pair.packetsSent += 1;
  pair.bytesSent += length;
}
