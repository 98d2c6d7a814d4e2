import { randomUUID } from 'node:crypto';
import type { LiveEventName, LiveEventPayload } from '@sea/contract/live';
import type { LiveRole } from '@sea/contract/live-ticket';
import type { Logger } from 'pino';
import { notFound } from './live-error.ts';
import { log } from './log.ts';
import { ConsumerTransport } from './rtc/consumer-transport.ts';
import type { RtcOptions } from './rtc/peer-connection.ts';
import type { Producer } from './rtc/producer.ts';
import { ProducerTransport } from './rtc/producer-transport.ts';
import type { ReceivingTransport } from './rtc/receiving-transport.ts';
import { Signal } from './signal.ts';

/** Why a peer closed: it left on purpose, lost its connection, was replaced by a newer connection of the same
 * user, its room ended, the server is shutting down, the server lost its media connection (`mediaLost`: a
 * forwarding worker stopped; its client must come back), or the user lost the class (`removed`: withdrawn,
 * class deleted). */
export type PeerCloseReason =
  'left' | 'disconnected' | 'replaced' | 'roomClosed' | 'shutdown' | 'mediaLost' | 'removed';

/** Who a peer is, from their live ticket. */
export type PeerInfo = { userId: string; nickname: string; role: LiveRole; classId: number };

/** Sends an event to this peer's client. */
export type Notify = <N extends LiveEventName>(event: N, payload: LiveEventPayload<N>) => void;

/**
 * One connected user in a room: the teacher (with one publishing transport, and a receiving one to hear
 * speaking students) or a student (with one receiving transport, and a publishing one while speaking). It knows nothing of its room; the room listens to its signals.
 */
export class Peer {
  readonly id = randomUUID();
  readonly info: PeerInfo;
  /** Emitted once, with the reason, when the peer closes. */
  readonly closed = new Signal<[reason: PeerCloseReason]>();
  /** A stream was published on this peer's publishing transport (the teacher's, or a speaking student's). */
  readonly producerAdded = new Signal<[Producer]>();
  readonly notify: Notify;
  /** Log lines about this peer: they carry its class, peer and user ids and role. */
  readonly log: Logger;
  private readonly rtc: RtcOptions;
  private readonly newReceiving: () => ReceivingTransport;
  private producerTransport: ProducerTransport | null = null;
  private consumerTransport: ReceivingTransport | null = null;
  private isClosed = false;

  /**
   * @param newReceiving makes a student's receiving transport: in a forwarding worker (the media server's), or
   *   by default in this thread.
   */
  constructor(
    info: PeerInfo,
    rtc: RtcOptions,
    notify: Notify,
    newReceiving: () => ReceivingTransport = () => new ConsumerTransport(rtc),
  ) {
    this.info = info;
    this.log = log.child({ classId: info.classId, peerId: this.id, userId: info.userId, role: info.role });
    this.rtc = rtc;
    this.notify = notify;
    this.newReceiving = newReceiving;
  }

  /** Creates the publishing transport, closing an earlier one (and so its producers). */
  createProducerTransport(): ProducerTransport {
    this.producerTransport?.close();
    const transport = new ProducerTransport(this.rtc);
    this.producerTransport = transport;
    this.log.info({ transportId: transport.id }, 'publishing transport created');
    transport.producerAdded.subscribe((producer) => this.producerAdded.emit(producer));
    transport.closed.subscribe(() => {
      if (this.producerTransport === transport) this.producerTransport = null;
    });
    return transport;
  }

  /** Closes the publishing transport, and so its streams (a student's, when their speaking ends). */
  closePublishing(): void {
    this.producerTransport?.close();
  }

  /** Creates the receiving transport, closing an earlier one. */
  createConsumerTransport(): ReceivingTransport {
    this.consumerTransport?.close();
    const transport = this.newReceiving();
    this.consumerTransport = transport;
    this.log.info({ transportId: transport.id }, 'receiving transport created');
    transport.closed.subscribe((reason) => {
      if (this.consumerTransport !== transport) return;
      this.consumerTransport = null;
      // The browser would take until ICE gives up to notice: the peer ends now, its client rejoins at once.
      if (reason === 'workerLost') this.close('mediaLost');
    });
    return transport;
  }

  /** The publishing transport with this id (else `notFound`). */
  producerTransportById(transportId: string): ProducerTransport {
    if (this.producerTransport?.id !== transportId) throw notFound('transport');
    return this.producerTransport;
  }

  /** The receiving transport with this id (else `notFound`). */
  consumerTransportById(transportId: string): ReceivingTransport {
    if (this.consumerTransport?.id !== transportId) throw notFound('transport');
    return this.consumerTransport;
  }

  /** The receiving transport, if any. */
  get receiving(): ReceivingTransport | null {
    return this.consumerTransport;
  }

  /** The publishing transport, if any. */
  get publishing(): ProducerTransport | null {
    return this.producerTransport;
  }

  get isClosedNow(): boolean {
    return this.isClosed;
  }

  /** Closes the transports, then emits `closed` once. Idempotent. */
  close(reason: PeerCloseReason): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.log.info({ reason }, 'peer closed');
    this.producerTransport?.close();
    this.consumerTransport?.close();
    this.closed.emit(reason);
    this.closed.clear();
    this.producerAdded.clear();
  }
}
