import {
  ProtectionProfileAeadAes128Gcm,
  RTCRtpSender,
  RTP_EXTENSION_URI,
  RtpHeader,
  RtpPacket,
  SrtpSession,
} from 'werift';
import { RtpForwarder } from '../src/rtc/rtp-forwarder.ts';

// A student's werift sender with an RtpForwarder, and a teacher's packets to forward through it: what
// rtp-forwarder.test.ts and sent-packet.test.ts compare with werift's own send path.

export type Sent = { header: RtpHeader; payload: Buffer };

export const MID = { id: 1, uri: RTP_EXTENSION_URI.sdesMid };
export const ABS_SEND_TIME = { id: 3, uri: RTP_EXTENSION_URI.absSendTime };
export const TRANSPORT_CC = { id: 5, uri: RTP_EXTENSION_URI.transportWideCC };

/**
 * A werift sender set up as a connected student's is, in the fields RtpForwarder reads and moves: its SSRC,
 * mid, negotiated extensions and VP8 payload type, a connected DTLS transport with `srtp`, and a nominated UDP
 * pair sending into `socket` (a dgram socket, or a fake with its `send`) at `remote`. `dtls` adds to the DTLS
 * transport, `fields` to the sender. Also the SFU benchmark's students (bench/sfu/forward-cost.ts).
 */
export function connectedSender(options: {
  ssrc: number;
  mid: string;
  payloadType: number;
  headerExtensions: { id: number; uri: string }[];
  srtp: object;
  socket: object;
  remote: [address: string, port: number];
  dtls?: object;
  fields?: object;
}): RTCRtpSender {
  const s = new RTCRtpSender('video');
  Object.assign(s, {
    ssrc: options.ssrc,
    mid: options.mid,
    headerExtensions: options.headerExtensions,
    codec: { payloadType: options.payloadType, name: 'VP8' },
    ...options.fields,
    dtlsTransport: {
      state: 'connected',
      bytesSent: 0,
      packetsSent: 0,
      ...options.dtls,
      srtp: options.srtp,
      iceTransport: {
        connection: {
          canSendApplicationData: () => true,
          nominated: {
            remoteAddr: options.remote,
            packetsSent: 0,
            bytesSent: 0,
            protocol: { transport: { type: 'udp', closed: false, socket: options.socket } },
          },
        },
      },
    },
  });
  return s;
}

/**
 * A sender of a connected student as werift sets it up, writing what it sends (plaintext) into `sent` and the
 * datagrams its UDP socket was given (as one buffer each) into `datagrams`.
 */
export function sender(headerExtensions: { id: number; uri: string }[]) {
  const sent: Sent[] = [];
  const datagrams: Buffer[] = [];
  const keep = (header: RtpHeader, payload: Buffer) =>
    sent.push({
      header: RtpHeader.deSerialize(header.serialize(header.serializeSize)),
      payload: Buffer.from(payload),
    });
  const s = connectedSender({
    ssrc: 0x0a0b_0c0d,
    mid: '2',
    payloadType: 97,
    headerExtensions,
    // werift's own path
    dtls: {
      sendRtp: async (payload: Buffer, header: RtpHeader) => keep(header, payload),
      sendRtcp: async () => undefined,
    },
    // the forwarding path: SRTP (here: none) and the nominated UDP pair
    srtp: {
      encrypt: (payload: Buffer, header: RtpHeader) => (
        keep(header, payload),
        Buffer.alloc(12 + payload.length)
      ),
    },
    socket: { send: (parts: Buffer[]) => datagrams.push(Buffer.concat(parts)) },
    remote: ['127.0.0.1', 9],
  });
  return { sender: s, forwarder: new RtpForwarder(s), sent, datagrams };
}

/** A teacher's packets as the producer hands them on: two sources (a layer switch), across the wraparound. */
export function input() {
  const packets: { packet: RtpPacket; switchTo: boolean }[] = [];
  for (let i = 0; i < 30; i += 1) {
    const second = i >= 18; // the student switches to another layer at packet 18
    const seq = second ? (900 + i) & 0xffff : (65_530 + i) & 0xffff;
    const header = new RtpHeader({
      payloadType: 96,
      ssrc: second ? 0x1002 : 0x1001,
      sequenceNumber: seq,
      timestamp: ((second ? 7_000_000 : 4_294_960_000) + Math.floor(i / 3) * 3000) >>> 0,
      marker: i % 3 === 2,
    });
    packets.push({
      packet: new RtpPacket(header, Buffer.from([0x90, 0x80, i, i, 1, 2, 3])),
      switchTo: i === 18,
    });
  }
  return packets;
}

/** A student's sender on a real AES-GCM SRTP session. */
export function gcmStudent(key: Buffer, salt: Buffer) {
  const { sender: s, forwarder, datagrams } = sender([MID, ABS_SEND_TIME]);
  const srtp = new SrtpSession({
    keys: { localMasterKey: key, localMasterSalt: salt, remoteMasterKey: key, remoteMasterSalt: salt },
    profile: ProtectionProfileAeadAes128Gcm,
  });
  (s as unknown as { dtlsTransport: Record<string, unknown> }).dtlsTransport.srtp = srtp;
  return { sender: s, forwarder, datagrams, srtp };
}
