import { RtpHeader } from 'werift';
import { withDescriptor } from '../forwarding/vp8-rewriter.ts';
import type { HeaderFields } from './gcm-packet.ts';
import { plannedExtensions, type Extension, type Plan } from './header-extensions.ts';
import type { Header } from './werift-internals.ts';

/** werift's RTP history per sender (answers NACKs): the same size as its own. */
export const RTP_HISTORY_SIZE = 128;
const EMPTY = Buffer.alloc(0);

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
export class SentPacket {
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
