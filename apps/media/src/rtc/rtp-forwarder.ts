import type { Socket } from 'node:dgram';
import {
  RTP_EXTENSION_URI,
  RtpHeader,
  RtpPacket,
  serializeSdesMid,
  uint16Add,
  uint32Add,
  type RTCRtpSender,
} from 'werift';
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
import { rtpCounts } from './rtp-counts.ts';

/** werift's RTP history per sender (answers NACKs): the same size as its own. */
const RTP_HISTORY_SIZE = 128;
/** Seconds from the NTP epoch (1900) to the Unix epoch (1970). */
const NTP_UNIX_OFFSET_S = 2_208_988_800;

type Extension = { id: number; payload: Buffer };
type Header = RtpPacket['header'];

/**
 * The parts of werift 0.25.2's sender, DTLS and ICE objects that its own send path uses (private fields:
 * `werift-internals.test.ts` pins the version and checks each one on a connected sender).
 */
export type SenderState = {
  stopped: boolean;
  pendingRtpEnabled: boolean;
  redRedundantPayloadType: number | undefined;
  codec: { payloadType: number } | undefined;
  ssrc: number;
  mid: string | undefined;
  headerExtensions: { id: number; uri: string }[];
  sequenceNumber: number | undefined;
  timestamp: number | undefined;
  seqOffset: number;
  timestampOffset: number;
  rtpContinuityPending: boolean;
  pendingTimestampStep: number;
  ntpTimestamp: bigint;
  rtpTimestamp: number;
  octetCount: number;
  packetCount: number;
  headerBytesSent: number;
  rtpCache: { header: Header; payload: Buffer }[];
  rtcpRunning: boolean;
  runRtcp(): Promise<void>;
  dtlsTransport?: {
    state: string;
    bytesSent: number;
    packetsSent: number;
    config?: { debug?: { outboundPacketLoss?: number } };
    srtp: SrtpLocal & { encrypt(payload: Buffer, header: Header): Buffer };
    iceTransport: { connection: IceConnection };
  };
};
export type IceConnection = {
  canSendApplicationData(): boolean;
  send(data: Buffer): Promise<void>;
  nominated?: {
    remoteAddr: [string, number];
    packetsSent: number;
    bytesSent: number;
    protocol: { transport?: { type?: string; closed?: boolean; socket?: Socket } };
  };
};

/**
 * One slot of a sender's history (werift answers NACKs from it), kept as the numbers its last packet was sent
 * with: its `RtpHeader` is made only if a NACK asks for it, and its payload, when it carries the student's own
 * VP8 numbers, copied only then. A slot's object is rewritten at every send, not replaced: a new object per
 * packet and student lived as long as the history (128 packets, 1.3-2.6 s), long enough to be copied by the
 * young-generation collector and promoted, and that collecting was about a tenth of the media process's CPU
 * at 100 students (`bench/sfu/README.md`). With AES-GCM nothing in a slot is allocated per send either: the
 * extensions are kept as the sender's plan, its mid and the abs-send-time value (the other SRTP profiles keep
 * the list and the header they made).
 */
class SentPacket {
  private marker = false;
  private payloadType = 0;
  private sequenceNumber = 0;
  private timestamp = 0;
  private ssrc = 0;
  private shared: Buffer = EMPTY;
  private descriptor = -1;
  /** The extensions as sent, or null: then the plan's, from {@link mid} and {@link absValue}. */
  private extensions: Extension[] | null = null;
  private plan: Plan = [];
  private mid: string | undefined = undefined;
  private absValue = 0;
  private built: Header | null = null;

  /** The packet a slot holds now: this path's own object, made once per slot of werift's (renewable) array. */
  static at(history: unknown[], slot: number): SentPacket {
    const entry = history[slot];
    if (entry instanceof SentPacket) return entry;
    const created = new SentPacket();
    history[slot] = created;
    return created;
  }

  /** Rewrites the slot for a packet sent with the sender's planned extensions. */
  keepPlanned(
    fields: HeaderFields,
    shared: Buffer,
    descriptor: number,
    plan: Plan,
    mid: string | undefined,
    abs: number,
  ) {
    this.numbers(fields, shared, descriptor);
    this.extensions = null;
    this.plan = plan;
    this.mid = mid;
    this.absValue = abs;
    this.built = null;
  }

  /** Rewrites the slot for a packet sent with these extensions (and this header, when one was made). */
  keep(
    fields: HeaderFields,
    shared: Buffer,
    descriptor: number,
    extensions: Extension[],
    header: Header | null,
  ) {
    this.numbers(fields, shared, descriptor);
    this.extensions = extensions;
    this.built = header;
  }

  get header(): Header {
    if (this.built) return this.built;
    const extensions = this.extensions ?? plannedExtensions(this.plan, this.mid, this.absValue);
    this.built = new RtpHeader({
      marker: this.marker,
      payloadType: this.payloadType,
      sequenceNumber: this.sequenceNumber,
      timestamp: this.timestamp,
      ssrc: this.ssrc,
      extension: extensions.length > 0,
      extensions,
    });
    return this.built;
  }

  get payload(): Buffer {
    return this.descriptor < 0 ? this.shared : withDescriptor(this.shared, this.descriptor);
  }

  private numbers(fields: HeaderFields, shared: Buffer, descriptor: number): void {
    this.marker = fields.marker;
    this.payloadType = fields.payloadType;
    this.sequenceNumber = fields.sequenceNumber;
    this.timestamp = fields.timestamp;
    this.ssrc = fields.ssrc;
    this.shared = shared;
    this.descriptor = descriptor;
  }
}
const EMPTY = Buffer.alloc(0);

/** What this sender's packets carry besides the payload; only mid and abs-send-time are handled here. */
const HANDLED = new Set<string>([RTP_EXTENSION_URI.sdesMid, RTP_EXTENSION_URI.absSendTime]);
const midPayloads = new Map<string, Buffer>();

/**
 * Sends forwarded packets through one student's werift sender: the same packets werift's own
 * `sender.sendRtp(packet)` sends (SSRC, payload type, sequence numbers and timestamps continued across
 * `replaceRTP`, the student's mid header extension, its history for NACKs, its sender-report counters, SRTP),
 * with these differences:
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
      s.headerExtensions.every((extension) => HANDLED.has(extension.uri));
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

type Plan = { id: number; uri: string }[];

/**
 * The NTP time of a send, for the sender's `ntpTimestamp` (werift puts it in its sender report with the last
 * packet's RTP time): whole milliseconds, one value per millisecond, since every student of a packet is sent
 * within the same one or two. A field written per packet, not an accessor: redefining a property of the sender
 * would turn it into a dictionary-mode object, and every read of it in this path into a hash lookup.
 */
function sentNtp(unixMs: number): bigint {
  const ms = Math.floor(unixMs);
  if (ms !== lastSentNtp.ms) lastSentNtp = { ms, value: ntpTimestamp(ms) };
  return lastSentNtp.value;
}
let lastSentNtp = { ms: -1, value: 0n };

/** The sender's extensions (as werift writes them: in id order, the packet's own ones kept unless replaced). */
function extensions(plan: Plan, mid: string | undefined, original: Extension[], abs: number): Extension[] {
  const out = plannedExtensions(plan, mid, abs);
  if (original.length === 0) return out; // forwarded packets carry none (the producer strips them)
  for (const extension of original) {
    const existing = out.find((e) => e.id === extension.id);
    if (existing) existing.payload = extension.payload;
    else out.push(extension);
  }
  return out.sort((a, b) => a.id - b.id);
}

/** The plan's extensions for a packet: the mid, and abs-send-time with this value. */
function plannedExtensions(plan: Plan, mid: string | undefined, abs: number): Extension[] {
  const out: Extension[] = [];
  for (const { id, uri } of plan) {
    if (uri === RTP_EXTENSION_URI.sdesMid) {
      if (mid) out.push({ id, payload: midPayload(mid) });
    } else {
      out.push({ id, payload: absSendTimePayload(abs) });
    }
  }
  return out;
}

function midPayload(mid: string): Buffer {
  let payload = midPayloads.get(mid);
  if (!payload) {
    payload = serializeSdesMid(mid);
    midPayloads.set(mid, payload);
  }
  return payload;
}

/** The id of the plan's abs-send-time extension, or -1. */
function absSendTimeId(plan: Plan): number {
  return plan.find(({ uri }) => uri === RTP_EXTENSION_URI.absSendTime)?.id ?? -1;
}

/** abs-send-time: seconds in 6.18 fixed point, modulo 64 (the NTP and Unix epochs differ by whole minutes). */
export function absSendTime(unixMs: number): Buffer {
  return absSendTimePayload(absSendTimeValue(unixMs));
}

function absSendTimeValue(unixMs: number): number {
  return Math.floor((unixMs / 1000) * 2 ** 18) % 2 ** 24;
}

function absSendTimePayload(value: number): Buffer {
  // Every student of a packet is sent within the same few µs: one buffer per value (never written after).
  if (value === lastAbsSendTime.value) return lastAbsSendTime.payload;
  const payload = Buffer.alloc(3);
  payload.writeUIntBE(value, 0, 3);
  lastAbsSendTime = { value, payload };
  return payload;
}
let lastAbsSendTime = { value: -1, payload: Buffer.alloc(3) };

/** A 64-bit NTP timestamp (RFC 3550): seconds since 1900 and the fraction of a second in 1/2^32. */
export function ntpTimestamp(unixMs: number): bigint {
  const seconds = Math.floor(unixMs / 1000);
  const fraction = Math.floor(((unixMs - seconds * 1000) / 1000) * 2 ** 32);
  return (BigInt(seconds + NTP_UNIX_OFFSET_S) << 32n) | BigInt(fraction);
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
