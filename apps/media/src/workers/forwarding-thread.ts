import { LiveError, notFound } from '../live-error.ts';
import { ConsumerTransport } from '../rtc/consumer-transport.ts';
import { MirroredProducer } from '../rtc/mirrored-producer.ts';
import { warmUpOffers } from '../rtc/offer-warm-up.ts';
import { openPeerConnections, type RtcOptions } from '../rtc/peer-connection.ts';
import { rtpCounts } from '../rtc/rtp-counts.ts';
import type { Call, FromWorker, ToWorker, WorkerCounts } from './messages.ts';
import { PacedQueue } from './paced-queue.ts';
import { StaleVideoGate, wallClockMs } from './stale-video-gate.ts';

type RtpMessage = Extract<ToWorker, { t: 'rtp' }>;

const resources = (kind: string) => process.getActiveResourcesInfo().filter((r) => r === kind).length;

/**
 * What one forwarding worker does: it holds some students' receiving transports (their werift connections,
 * consumers, SRTP and sockets) and mirrors of the teacher's streams, and forwards every packet the main thread
 * sends to its students. The main thread keeps signalling, rooms and the teacher's connection.
 */
export class ForwardingThread {
  private readonly rtc: RtcOptions;
  private readonly send: (message: FromWorker) => void;
  private readonly transports = new Map<string, ConsumerTransport>();
  private readonly streams = new Map<string, MirroredProducer>();
  private packetsReceived = 0;
  private readonly staleVideo: StaleVideoGate;
  /** The teacher's packets wait here, forwarded in turns between polls of the students' sockets. */
  private readonly packets = new PacedQueue<RtpMessage>((message) => this.forward(message));

  constructor(rtc: RtcOptions, send: (message: FromWorker) => void) {
    this.rtc = rtc;
    this.send = send;
    this.staleVideo = new StaleVideoGate((id, layer) => this.send({ t: 'keyframe', id, layer }));
    // The threads start with a room, before its students: their first offer need not compile werift's code.
    void warmUpOffers(rtc);
  }

  handle(message: ToWorker): void {
    switch (message.t) {
      case 'rtp':
        this.packetsReceived += 1;
        this.packets.push(message, this.streams.get(message.id)?.media === 'audio');
        return;
      case 'stream': {
        const { stream } = message;
        if (this.streams.has(stream.id)) return;
        const mirror = new MirroredProducer(stream.id, stream.kind, stream.layers, (layer) =>
          this.send({ t: 'keyframe', id: stream.id, layer }),
        );
        this.streams.set(stream.id, mirror);
        return;
      }
      case 'heldKeyframe':
        this.streams.get(message.id)?.adoptKeyframe(message.layer, message.packets, message.ageMs);
        return;
      case 'streamClosed':
        this.streams.get(message.id)?.close();
        this.streams.delete(message.id);
        this.staleVideo.forget(message.id);
        return;
      case 'call':
        this.answer(message.n, message.call);
    }
  }

  /**
   * Forwards one of the teacher's packets to this worker's students of its stream. Messages about streams and
   * transports are not queued: a stream is described before its packets are sent, so before they run here; a
   * packet of a stream closed meanwhile finds none and is dropped.
   */
  private forward(message: RtpMessage): void {
    const stream = this.streams.get(message.id);
    if (!stream) return;
    const { id, layer, keyframe, sentAt } = message;
    if (stream.media === 'video' && !this.staleVideo.pass(id, layer, keyframe, sentAt, wallClockMs())) {
      stream.arrived(layer);
      return;
    }
    stream.receive(layer, message.data, keyframe);
  }

  /** Closes every transport (the worker is being stopped). */
  close(): void {
    for (const transport of [...this.transports.values()]) transport.close();
    for (const stream of this.streams.values()) stream.close();
    this.streams.clear();
  }

  private answer(n: number, call: Call): void {
    Promise.resolve()
      .then(() => this.run(call))
      .then(
        (value) => this.send({ t: 'reply', n, value }),
        (error: unknown) => {
          if (error instanceof LiveError) {
            this.send({ t: 'refused', n, code: error.code, message: error.message });
          } else {
            this.send({
              t: 'failed',
              n,
              message: error instanceof Error ? (error.stack ?? error.message) : String(error),
            });
          }
        },
      );
  }

  private run(call: Call): unknown {
    switch (call.op) {
      case 'create':
        return this.create(call.transportId);
      case 'consume': {
        const streams = call.streamIds.flatMap((id) => this.streams.get(id) ?? []);
        return this.transport(call.transportId).consume(streams);
      }
      case 'connect':
        return this.transport(call.transportId).connect(call.sdp);
      case 'resume':
        return this.transport(call.transportId).resume(call.consumerId);
      case 'pause':
        return this.transport(call.transportId).pause(call.consumerId);
      case 'setPreferredLayer':
        return this.transport(call.transportId).setPreferredLayer(call.consumerId, call.layer);
      case 'close':
        this.transports.get(call.transportId)?.close();
        return null;
      case 'counts':
        return this.counts();
    }
  }

  private create(transportId: string): null {
    const transport = new ConsumerTransport(this.rtc, transportId);
    this.transports.set(transportId, transport);
    transport.closed.subscribe(() => {
      this.transports.delete(transportId);
      this.send({ t: 'transportClosed', transportId });
    });
    return null;
  }

  private transport(transportId: string): ConsumerTransport {
    const transport = this.transports.get(transportId);
    if (!transport) throw notFound('transport');
    return transport;
  }

  private counts(): WorkerCounts {
    let consumers = 0;
    for (const transport of this.transports.values()) consumers += transport.list().length;
    let packetListeners = 0;
    for (const stream of this.streams.values()) packetListeners += stream.packet.size;
    return {
      transports: this.transports.size,
      consumers,
      streams: this.streams.size,
      packetListeners,
      packetsReceived: this.packetsReceived,
      packetsStale: this.staleVideo.dropped,
      peerConnections: openPeerConnections(),
      sockets: resources('UDPWRAP'),
      timers: resources('Timeout'),
      rtp: { ...rtpCounts },
    };
  }
}
