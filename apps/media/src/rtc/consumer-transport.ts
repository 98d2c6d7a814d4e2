import { randomUUID } from 'node:crypto';
import {
  ReceiverEstimatedMaxBitrate,
  RtcpPayloadSpecificFeedback,
  RtcpRrPacket,
  type RTCPeerConnection,
  type RTCRtpTransceiver,
  type RtcpPacket,
} from 'werift';
import type { ConsumerInfo, PreferredLayer } from '@sea/contract/live';
import { DownlinkEstimator } from '../forwarding/downlink-estimator.ts';
import { conflict, LiveError, notFound } from '../live-error.ts';
import { Signal } from '../signal.ts';
import { Consumer, type Bandwidth } from './consumer.ts';
import { SendState } from './send-state.ts';
import { keepEarlyDtls } from './dtls-early-packets.ts';
import { createPeerConnection, gathered, localSdp, setLocal, type RtcOptions } from './peer-connection.ts';
import type { ReceivingCloseReason, ReceivingTransport } from './receiving-transport.ts';
import type { StreamSource } from './stream-source.ts';
import { unlessClosed } from './unless-closed.ts';
import { log } from '../log.ts';

/** Layer choice and keyframe retries run this often. */
const TICK_MS = 200;

const closedRefusal = () => conflict('수신 연결이 닫혔어요.');

/** One of the student's m-lines, and what its next consumer continues from. */
type Slot = { transceiver: RTCRtpTransceiver; state: SendState };
type Entry = Slot & { consumer: Consumer };

/**
 * A student's receiving connection: one send-only m-line per producer, added and removed by renegotiation
 * ({@link consume} makes the offer, {@link connect} applies the student's answer). It keeps the student's
 * downstream estimate (receiver reports and REMB) that its consumers choose their layer from.
 */
export class ConsumerTransport implements ReceivingTransport {
  readonly id: string;
  /** Emitted once when the transport closes (its consumers are closed first). */
  readonly closed = new Signal<[reason: ReceivingCloseReason]>();
  private readonly pc: RTCPeerConnection;
  private readonly options: RtcOptions;
  private readonly entries = new Map<string, Entry>();
  /** m-lines whose producer closed, kept (silent) for the next producer of the same media. */
  private readonly free: Record<'audio' | 'video', Slot[]> = { audio: [], video: [] };
  private readonly downlink = new DownlinkEstimator();
  private readonly unsubscribes: (() => void)[] = [];
  private readonly watched = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private negotiating: Promise<unknown> = Promise.resolve();
  private isClosed = false;

  constructor(options: RtcOptions, id: string = randomUUID()) {
    this.id = id;
    this.options = options;
    this.pc = createPeerConnection(options, 'subscriber');
    this.unsubscribes.push(
      this.pc.connectionStateChange.subscribe((state) => {
        if (state === 'connected')
          for (const { consumer } of this.entries.values()) consumer.transportConnected();
        if (state === 'failed') log.warn({ transportId: this.id }, 'student connection failed');
        if (state === 'failed' || state === 'closed') this.close();
      }).unSubscribe,
    );
  }

  /**
   * Brings the connection up to date with `producers`: an m-line for each new one (its consumer paused), the
   * m-lines of closed ones stopped. Answers the offer and every current consumer. Serialised.
   */
  consume(producers: StreamSource[]): Promise<{ sdp: string; consumers: ConsumerInfo[] }> {
    const run = this.negotiating.then(() => this.offer(producers));
    this.negotiating = run.catch(() => undefined);
    return run;
  }

  /** Applies the student's answer to the last offer. */
  connect(answerSdp: string): Promise<void> {
    const run = this.negotiating.then(async () => {
      if (this.isClosed) throw closedRefusal();
      if (this.pc.signalingState !== 'have-local-offer') throw conflict('적용할 offer가 없어요.');
      // werift takes text that is no SDP at all for an empty answer and silently drops its offer.
      if (!/^v=0\r?\n/.test(answerSdp)) throw conflict('answer를 적용할 수 없어요: SDP가 아니에요.');
      try {
        await this.step(this.pc.setRemoteDescription({ type: 'answer', sdp: answerSdp }));
      } catch (error) {
        if (error instanceof LiveError) throw error;
        throw conflict(`answer를 적용할 수 없어요: ${(error as Error).message}`);
      }
    });
    this.negotiating = run.catch(() => undefined);
    return run;
  }

  /** The consumer with this id. */
  consumer(consumerId: string): Consumer {
    for (const { consumer } of this.entries.values()) if (consumer.id === consumerId) return consumer;
    throw notFound('consumer');
  }

  /** Starts forwarding a consumer (video at the next keyframe). */
  async resume(consumerId: string): Promise<void> {
    this.consumer(consumerId).resume();
  }

  /** Stops forwarding a consumer until it is resumed. */
  async pause(consumerId: string): Promise<void> {
    this.consumer(consumerId).pause();
  }

  /** Fixes a consumer's layer, or `auto`. */
  async setPreferredLayer(consumerId: string, layer: PreferredLayer): Promise<void> {
    this.consumer(consumerId).setPreferredLayer(layer);
  }

  /** The current consumers. */
  list(): Consumer[] {
    return [...this.entries.values()].map((entry) => entry.consumer);
  }

  /** The student's downstream estimate, in bit/s. */
  get estimateBps(): number {
    return this.downlink.bps;
  }

  get isClosedNow(): boolean {
    return this.isClosed;
  }

  /** Closes consumers, timer and the peer connection. Idempotent; `closed` is emitted once. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const { consumer } of [...this.entries.values()]) consumer.close();
    this.entries.clear();
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    this.unsubscribes.length = 0;
    this.pc
      .close()
      .catch((error: unknown) =>
        log.error({ err: error, transportId: this.id }, 'closing a student connection failed'),
      );
    this.closed.emit('closed');
    this.closed.clear();
  }

  /** A new m-line for `media`, with its send state. */
  private slot(media: 'audio' | 'video'): Slot {
    const transceiver = this.pc.addTransceiver(media, { direction: 'sendonly' });
    return { transceiver, state: new SendState(media, transceiver.sender) };
  }

  private async offer(producers: StreamSource[]): Promise<{ sdp: string; consumers: ConsumerInfo[] }> {
    if (this.isClosed) throw closedRefusal();
    if (this.pc.signalingState !== 'stable') {
      // The student never answered the last offer: start over from the last agreed state.
      await this.step(this.pc.setLocalDescription({ type: 'rollback' }));
    }
    for (const producer of producers) {
      if (producer.isClosedNow || this.entries.has(producer.id)) continue;
      // Reuse an idle m-line of the same media before adding one: the SDP stays bounded however often the
      // teacher toggles a stream. Idle m-lines stay `sendonly` (just silent): stopping the first one (the BUNDLE
      // tag) made werift tear the shared transport down, and an `inactive` m-line in the answer makes werift
      // renominate ICE, after which nothing reached the student.
      const slot = this.free[producer.media].pop() ?? this.slot(producer.media);
      const consumer: Consumer = new Consumer(
        producer,
        slot.transceiver.sender,
        () => this.bandwidth(consumer),
        slot.state,
      );
      this.entries.set(producer.id, { ...slot, consumer });
      consumer.closed.subscribe(() => {
        const entry = this.entries.get(producer.id);
        if (entry?.consumer !== consumer) return;
        this.entries.delete(producer.id);
        if (!this.isClosed)
          this.free[producer.media].push({ transceiver: entry.transceiver, state: entry.state });
      });
    }
    const offer = await this.step(this.pc.createOffer());
    // Full ICE (an edge sending a speaker's microphone up to its origin) gathers: never from werift's fallback.
    await this.step(setLocal(this.pc, offer, this.options));
    // Only now, and only while open (step): a transport closed during the awaits must start nothing.
    this.watchTransports();
    this.timer ??= setInterval(() => this.tick(), TICK_MS);
    await this.step(gathered(this.pc));
    const sdp = localSdp(this.pc);
    if (!sdp) throw conflict('offer를 만들 수 없어요.');
    const consumers = [...this.entries.values()].map(({ consumer, transceiver }) => ({
      consumerId: consumer.id,
      producerId: consumer.producer.id,
      producerKind: consumer.kind,
      mid: transceiver.mid ?? '',
    }));
    return { sdp, consumers };
  }

  /**
   * The student's estimate and what their consumers other than `consumer` send now: the screen share and both
   * audio streams share the connection with the webcam, whose layer gets what they leave.
   */
  private bandwidth(consumer: Consumer): Bandwidth {
    const now = performance.now();
    let otherStreamsBps = 0;
    for (const entry of this.entries.values()) {
      if (entry.consumer !== consumer) otherStreamsBps += entry.consumer.sentBps(now);
    }
    return { estimateBps: this.downlink.bps, otherStreamsBps };
  }

  /** Awaits a step of werift's negotiation; refused at once if the transport closes meanwhile. */
  private step<T>(work: Promise<T>): Promise<T> {
    return unlessClosed(this, work, closedRefusal);
  }

  /**
   * Reads the student's receiver reports and REMB from every (bundled) transport, once per transport, and keeps
   * the DTLS packets that arrive before werift starts the transport's handshake ({@link keepEarlyDtls}).
   */
  private watchTransports(): void {
    for (const dtls of this.pc.dtlsTransports) {
      if (this.watched.has(dtls.id)) continue;
      this.watched.add(dtls.id);
      this.unsubscribes.push(
        dtls.onRtcp.subscribe((packet) => this.onRtcp(packet)).unSubscribe,
        keepEarlyDtls(dtls),
      );
    }
  }

  private onRtcp(packet: RtcpPacket): void {
    if (packet instanceof RtcpRrPacket) {
      // One estimate update per report packet, from the worst of this student's streams.
      const ours = new Set(this.pc.getSenders().map((sender) => sender.ssrc));
      const fractions = packet.reports.filter((r) => ours.has(r.ssrc)).map((r) => r.fractionLost / 256);
      if (fractions.length > 0) this.downlink.onLoss(Math.max(...fractions));
    } else if (
      packet instanceof RtcpPayloadSpecificFeedback &&
      packet.feedback instanceof ReceiverEstimatedMaxBitrate
    ) {
      const sent = this.list().reduce((sum, consumer) => sum + consumer.sentBps(), 0);
      this.downlink.onRemb(Number(packet.feedback.bitrate), sent);
    }
  }

  private tick(): void {
    const now = performance.now();
    for (const { consumer } of this.entries.values()) consumer.tick(now);
  }
}
