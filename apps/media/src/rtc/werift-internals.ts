import type { Socket } from 'node:dgram';
import type { RtpPacket } from 'werift';
import type { SrtpLocal } from './gcm-packet.ts';

/** A werift RTP header. */
export type Header = RtpPacket['header'];

/**
 * The parts of werift 0.25.2's sender, DTLS and ICE objects that its own send path uses, and that
 * RtpForwarder (rtp-forwarder.ts) reads and writes in its place (private fields: `werift-internals.test.ts` pins the
 * version and checks each one on a connected sender).
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

/** The ICE connection of a werift sender's DTLS transport, and its nominated pair (see {@link SenderState}). */
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
