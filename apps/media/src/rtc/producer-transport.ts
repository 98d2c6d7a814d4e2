import { randomUUID } from 'node:crypto';
import type { RTCDtlsTransport, RTCPeerConnection, RtcpPacket } from 'werift';
import type { Layer, StreamKind } from '@sea/contract/live';
import { prepareTeacherOffer, restoreNack } from '../forwarding/sdp-munging.ts';
import { conflict, LiveError, notFound } from '../live-error.ts';
import { Signal } from '../signal.ts';
import { createPeerConnection, gathered, localSdp, setLocal, type RtcOptions } from './peer-connection.ts';
import { Producer, type ReceivedTrack } from './producer.ts';
import { unlessClosed } from './unless-closed.ts';
import { log } from '../log.ts';
import { UplinkFeedback } from './uplink-feedback.ts';

/** NACKs go out this often (missing packets are asked for again after the tracker's retry interval). */
const NACK_INTERVAL_MS = 20;

const closedRefusal = () => conflict('송출 연결이 닫혔어요.');

/**
 * The teacher's publishing connection. It answers the browser's offers (first and renegotiations), turns the
 * negotiated m-lines into {@link Producer}s, and sends the feedback werift gets wrong for a simulcast SFU
 * ({@link UplinkFeedback}): NACK per SSRC, REMB computed from what arrives, and the producers' keyframe requests.
 */
export class ProducerTransport {
  readonly id = randomUUID();
  /** Emitted once when the transport closes (its producers are closed first). */
  readonly closed = new Signal();
  /** A producer was added (it replaced any earlier producer of the same kind). */
  readonly producerAdded = new Signal<[Producer]>();
  private readonly pc: RTCPeerConnection;
  private readonly options: RtcOptions;
  /** By slot: the kind for the teacher's streams; an edge's relayed speakers each have a slot of their own. */
  private readonly producers = new Map<string, Producer>();
  private readonly uplink = new UplinkFeedback();
  private readonly watched = new Map<string, () => void>();
  private timer: NodeJS.Timeout | null = null;
  private negotiating: Promise<unknown> = Promise.resolve();
  private isClosed = false;

  constructor(options: RtcOptions) {
    this.options = options;
    this.pc = createPeerConnection(options, 'publisher');
    this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'failed') log.warn({ transportId: this.id }, 'teacher connection failed');
      if (state === 'failed' || state === 'closed') this.close();
    });
  }

  /** Applies the teacher's offer and returns the answer (with the server's candidates). Serialised. */
  connect(offerSdp: string): Promise<string> {
    const run = this.negotiating.then(() => this.answer(offerSdp));
    this.negotiating = run.catch(() => undefined);
    return run;
  }

  /**
   * Publishes the stream carried by the m-line `mid` as `kind`, replacing an earlier producer in its `slot`
   * (by default its kind: one stream per kind). The m-line must be in the last applied offer and send media.
   */
  produce(kind: StreamKind, mid: string, slot: string = kind): Producer {
    if (this.isClosed) throw closedRefusal();
    const transceiver = this.pc.getTransceivers().find((t) => t.mid === mid);
    if (!transceiver) throw notFound('mline');
    const tracks = transceiver.receiver.tracks;
    if (tracks.length === 0 || transceiver.kind !== (kind.endsWith('Video') ? 'video' : 'audio')) {
      throw conflict(`이 미디어 항목(${mid})으로는 ${kind} 스트림을 보낼 수 없어요.`);
    }
    return this.addProducer(kind, tracks, slot);
  }

  /**
   * Publishes one simulcast stream whose layers arrive on separate m-lines (an edge node pulling the webcam
   * from its origin: one m-line per layer), replacing an earlier producer of that kind.
   */
  produceLayers(kind: StreamKind, mids: Partial<Record<Layer, string>>): Producer {
    if (this.isClosed) throw closedRefusal();
    const tracks = Object.entries(mids).map(([layer, mid]) => {
      const track = this.pc.getTransceivers().find((t) => t.mid === mid)?.receiver.tracks[0];
      if (!track) throw notFound('mline');
      return { rid: layer, ssrc: track.ssrc, onReceiveRtp: track.onReceiveRtp };
    });
    return this.addProducer(kind, tracks, kind);
  }

  private addProducer(kind: StreamKind, tracks: ReceivedTrack[], slot: string): Producer {
    this.producers.get(slot)?.close();
    const producer = new Producer(kind, tracks, (ssrc) => this.sendPli(ssrc));
    this.producers.set(slot, producer);
    producer.closed.subscribe(() => {
      if (this.producers.get(slot) === producer) this.producers.delete(slot);
    });
    this.producerAdded.emit(producer);
    return producer;
  }

  /** Stops the stream in `slot` (a kind, see {@link produce}), if any. */
  closeProducer(slot: string): void {
    this.producers.get(slot)?.close();
  }

  /** The current producers. */
  list(): Producer[] {
    return [...this.producers.values()];
  }

  /** The estimate last sent to the teacher, in bit/s (for tests and the benchmark). */
  get estimateBps(): number {
    return this.uplink.estimateBps;
  }

  get isClosedNow(): boolean {
    return this.isClosed;
  }

  /** Closes producers, timers and the peer connection. Idempotent; `closed` is emitted once. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const producer of [...this.producers.values()]) producer.close();
    for (const unsubscribe of this.watched.values()) unsubscribe();
    this.watched.clear();
    this.pc
      .close()
      .catch((error: unknown) =>
        log.error({ err: error, transportId: this.id }, 'closing a teacher connection failed'),
      );
    this.closed.emit();
    this.closed.clear();
    this.producerAdded.clear();
  }

  private async answer(offerSdp: string): Promise<string> {
    if (this.isClosed) throw closedRefusal();
    if (!/^v=0\r?\n/.test(offerSdp) || !/^m=(audio|video) /m.test(offerSdp)) {
      throw conflict('offer에 오디오나 비디오가 없어요.');
    }
    try {
      await this.step(this.pc.setRemoteDescription({ type: 'offer', sdp: prepareTeacherOffer(offerSdp) }));
      const answer = await this.step(this.pc.createAnswer());
      await this.step(setLocal(this.pc, answer, this.options));
    } catch (error) {
      if (error instanceof LiveError) throw error;
      throw conflict(`offer를 적용할 수 없어요: ${(error as Error).message}`);
    }
    // Only now, and only while open (step): a transport closed during the awaits must start nothing.
    this.watchTransports();
    this.uplink.videoPayloadTypes = new Set(
      this.pc
        .getTransceivers()
        .filter((t) => t.kind === 'video')
        .flatMap((t) => t.codecs.map((codec) => codec.payloadType)),
    );
    this.timer ??= setInterval(() => this.tick(), NACK_INTERVAL_MS);
    await this.step(gathered(this.pc));
    const sdp = localSdp(this.pc);
    if (!sdp) throw conflict('answer를 만들 수 없어요.');
    return restoreNack(sdp);
  }

  /** Awaits a step of werift's negotiation; refused at once if the transport closes meanwhile. */
  private step<T>(work: Promise<T>): Promise<T> {
    return unlessClosed(this, work, closedRefusal);
  }

  /** Observes every incoming RTP and RTCP packet of each (bundled) transport, once per transport. */
  private watchTransports(): void {
    for (const dtls of this.pc.dtlsTransports) {
      if (this.watched.has(dtls.id)) continue;
      const rtp = dtls.onRtp.subscribe((packet) => this.uplink.received(packet));
      const rtcp = dtls.onRtcp.subscribe((packet) => this.onRtcp(packet));
      this.watched.set(dtls.id, () => {
        rtp.unSubscribe();
        rtcp.unSubscribe();
      });
    }
  }

  private onRtcp(_packet: RtcpPacket): void {
    // The teacher's sender reports need no action: the answer's REMB and NACK come from what arrives.
  }

  private tick(): void {
    const now = performance.now();
    const dtls = this.transport();
    if (!dtls) return;
    const feedback = this.uplink.nacks(now);
    for (const producer of this.producers.values()) producer.tick(now);
    const remb = this.uplink.rembIfDue(now);
    if (remb) feedback.push(remb);
    // One RTCP packet per datagram: werift's own parser reads a NACK's FCI to the end of the datagram, so a
    // compound packet would garble what follows it for werift peers (the synthetic clients of tests and bench).
    for (const packet of feedback) {
      dtls
        .sendRtcp([packet])
        .catch((error: unknown) =>
          log.error({ err: error, transportId: this.id }, 'sending feedback failed'),
        );
    }
  }

  private sendPli(ssrc: number): void {
    const dtls = this.transport();
    if (!dtls) return;
    dtls
      .sendRtcp([this.uplink.pli(ssrc)])
      .catch((error: unknown) => log.error({ err: error, transportId: this.id }, 'sending a PLI failed'));
  }

  private transport(): RTCDtlsTransport | undefined {
    return this.pc.dtlsTransports.find((dtls) => dtls.state === 'connected');
  }
}
