import { randomInt } from 'node:crypto';
import {
  GenericNack,
  PictureLossIndication,
  ReceiverEstimatedMaxBitrate,
  RtcpPayloadSpecificFeedback,
  RtcpTransportLayerFeedback,
  type RtcpPacket,
  type RtpPacket,
} from 'werift';
import { BitrateMeter } from '../forwarding/bitrate-meter.ts';
import { NackTracker } from '../forwarding/nack-tracker.ts';
import { encodeRembBitrate, RembEstimator } from '../forwarding/remb-estimator.ts';
import { rtpCounts } from './rtp-counts.ts';

/** REMB goes out this often. */
const REMB_INTERVAL_MS = 500;
/** An SSRC silent this long is forgotten. */
const STREAM_IDLE_MS = 5_000;

/**
 * The feedback werift gets wrong for a simulcast SFU, worked out from what arrives on the teacher's
 * connection (ProducerTransport sends it): NACKs per SSRC for video, a REMB from the received rate and loss,
 * and PLIs for the producers' keyframe requests.
 */
export class UplinkFeedback {
  /** The negotiated video payload types: only video is NACKed. */
  videoPayloadTypes = new Set<number>();
  /** Per incoming SSRC: its NACK tracker, when it last sent, whether it is video. */
  private readonly streams = new Map<number, { nack: NackTracker; lastAt: number; video: boolean }>();
  private readonly meter = new BitrateMeter();
  private readonly remb = new RembEstimator();
  private readonly rtcpSsrc = randomInt(1, 2 ** 32 - 1);
  private lastRembAt = 0;

  /** The estimate last worked out for the teacher, in bit/s. */
  get estimateBps(): number {
    return this.remb.bps;
  }

  /** Counts a packet from the teacher. */
  received(packet: RtpPacket): void {
    const now = performance.now();
    const { ssrc, payloadType } = packet.header;
    let stream = this.streams.get(ssrc);
    if (!stream) {
      stream = { nack: new NackTracker(), lastAt: now, video: this.videoPayloadTypes.has(payloadType) };
      this.streams.set(ssrc, stream);
    }
    stream.lastAt = now;
    stream.nack.receive(packet.header.sequenceNumber, now);
    rtpCounts.received += 1;
    rtpCounts.receivedBytes += packet.payload.length;
    this.meter.add(packet.payload.length + 12, now);
  }

  /** The NACKs due now, one packet per video SSRC with losses to ask for again. */
  nacks(now: number): RtcpPacket[] {
    const feedback: RtcpPacket[] = [];
    for (const [ssrc, stream] of this.streams) {
      if (!stream.video) continue;
      const lost = stream.nack.due(now);
      if (lost.length > 0) {
        rtpCounts.nacksSent += 1;
        rtpCounts.nackedPackets += lost.length;
        feedback.push(
          new RtcpTransportLayerFeedback({
            feedback: new GenericNack({ senderSsrc: this.rtcpSsrc, mediaSourceSsrc: ssrc, lost }),
          }),
        );
      }
    }
    return feedback;
  }

  /** A REMB when one is due (every {@link REMB_INTERVAL_MS}) and a video stream arrives, else null. */
  rembIfDue(now: number): RtcpPacket | null {
    if (now - this.lastRembAt < REMB_INTERVAL_MS) return null;
    this.lastRembAt = now;
    return this.rembPacket(now);
  }

  /** A PLI asking the teacher for a keyframe on `ssrc`. */
  pli(ssrc: number): RtcpPacket {
    rtpCounts.keyframeRequests += 1;
    return new RtcpPayloadSpecificFeedback({
      feedback: new PictureLossIndication({ senderSsrc: this.rtcpSsrc, mediaSsrc: ssrc }),
    });
  }

  private rembPacket(now: number): RtcpPacket | null {
    let expected = 0;
    let lost = 0;
    for (const [ssrc, stream] of this.streams) {
      // A stream the teacher stopped: forget it, so restarts do not pile up trackers.
      if (now - stream.lastAt > STREAM_IDLE_MS) {
        this.streams.delete(ssrc);
        continue;
      }
      const counts = stream.nack.takeCounts();
      rtpCounts.expected += counts.expected;
      rtpCounts.lost += counts.lost;
      expected += counts.expected;
      lost += counts.lost;
    }
    const estimate = this.remb.update(this.meter.bps(now), expected > 0 ? lost / expected : 0);
    const ssrcFeedbacks = [...this.streams.entries()].filter(([, s]) => s.video).map(([ssrc]) => ssrc);
    if (ssrcFeedbacks.length === 0) return null;
    const { exp, mantissa } = encodeRembBitrate(estimate);
    return new RtcpPayloadSpecificFeedback({
      feedback: new ReceiverEstimatedMaxBitrate({
        senderSsrc: this.rtcpSsrc,
        mediaSsrc: 0,
        brExp: exp,
        brMantissa: mantissa,
        bitrate: BigInt(estimate),
        ssrcNum: ssrcFeedbacks.length,
        ssrcFeedbacks,
      }),
    });
  }
}
