import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RtpHeader, RtpPacket, type RTCPeerConnection, type RTCRtpSender } from 'werift';
import { answerTo, createClientPeerConnection } from '../../test/werift-clients.ts';
import { createPeerConnection, gathered } from './peer-connection.ts';
import type { IceConnection, SenderState } from './werift-internals.ts';

/**
 * rtp-forwarder.ts (and peer-connection.ts's socket buffers) read and write werift's private fields, typed by
 * hand for this version (werift-internals.ts). An upgrade must fail here, loudly, until every field is checked
 * again.
 */
const WERIFT_VERSION = '0.25.2';

type Kind = 'boolean' | 'number' | 'string' | 'bigint' | 'function' | 'object' | 'array' | 'undefined';
type Dtls = NonNullable<SenderState['dtlsTransport']>;
type Pair = NonNullable<IceConnection['nominated']>;
type Transport = NonNullable<Pair['protocol']['transport']>;

// Each table lists every field of its type (TypeScript refuses a table that misses one), with what werift holds
// there once a student is connected and a packet went out through werift's own sendRtp.
const SENDER: Record<keyof SenderState, Kind> = {
  stopped: 'boolean',
  pendingRtpEnabled: 'boolean',
  redRedundantPayloadType: 'undefined', // no RED is negotiated; the field exists (a number turns RED on)
  codec: 'object',
  ssrc: 'number',
  mid: 'string',
  headerExtensions: 'array',
  sequenceNumber: 'number',
  timestamp: 'number',
  seqOffset: 'number',
  timestampOffset: 'number',
  rtpContinuityPending: 'boolean',
  pendingTimestampStep: 'number',
  ntpTimestamp: 'bigint',
  rtpTimestamp: 'number',
  octetCount: 'number',
  packetCount: 'number',
  headerBytesSent: 'number',
  rtpCache: 'array',
  rtcpRunning: 'boolean',
  runRtcp: 'function',
  dtlsTransport: 'object',
};
const DTLS: Record<keyof Dtls, Kind> = {
  state: 'string',
  bytesSent: 'number',
  packetsSent: 'number',
  config: 'object',
  srtp: 'object',
  iceTransport: 'object',
};
const CONNECTION: Record<keyof IceConnection, Kind> = {
  canSendApplicationData: 'function',
  send: 'function',
  nominated: 'object',
};
const PAIR: Record<keyof Pair, Kind> = {
  remoteAddr: 'array',
  packetsSent: 'number',
  bytesSent: 'number',
  protocol: 'object',
};
const TRANSPORT: Record<keyof Transport, Kind> = { type: 'string', closed: 'boolean', socket: 'object' };

function kindOf(value: unknown): Kind {
  return Array.isArray(value) ? 'array' : (typeof value as Kind);
}

/** Each field: present on the object (own or inherited) and of the kind in the table. */
function fields(object: object, table: Record<string, Kind>): Record<string, Kind | 'missing'> {
  return Object.fromEntries(
    Object.keys(table).map((name) => [
      name,
      name in object ? kindOf((object as Record<string, unknown>)[name]) : 'missing',
    ]),
  );
}

/** werift's own package.json, found upwards from its entry point (its exports do not include the file). */
function installedWerift(): { version: string } {
  let dir = path.dirname(createRequire(import.meta.url).resolve('werift'));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (manifest.name === 'werift') return manifest;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('werift/package.json not found');
    dir = parent;
  }
}

describe("werift's private fields", { timeout: 30_000 }, () => {
  let sfu: RTCPeerConnection;
  let student: RTCPeerConnection;
  let sender: RTCRtpSender;

  beforeAll(async () => {
    sfu = createPeerConnection(
      { announcedIp: '127.0.0.1', listenIp: '127.0.0.1', portRange: null, iceServers: [] },
      'subscriber',
    );
    const transceiver = sfu.addTransceiver('video', { direction: 'sendonly' });
    await sfu.setLocalDescription(await sfu.createOffer());
    await gathered(sfu);
    student = createClientPeerConnection('student');
    const answer = await answerTo(student, sfu.localDescription?.sdp ?? '');
    await sfu.setRemoteDescription({ type: 'answer', sdp: answer });
    await sfu.connectionStateChange.watch((state) => state === 'connected', 10_000);
    sender = transceiver.sender;
    const header = new RtpHeader({ payloadType: 96, ssrc: 1, sequenceNumber: 7, timestamp: 3000 });
    await sender.sendRtp(new RtpPacket(header, Buffer.from([0x90, 0x80, 1, 2, 3])));
  });

  afterAll(async () => {
    await student?.close();
    await sfu?.close();
  });

  it(`are those of werift ${WERIFT_VERSION}, installed and pinned exactly`, () => {
    expect(installedWerift().version).toBe(WERIFT_VERSION);
    const media = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(media.dependencies.werift).toBe(WERIFT_VERSION);
  });

  it('exist on a connected sender with the kinds RtpForwarder expects', () => {
    const s = sender as unknown as SenderState;
    expect(fields(s, SENDER)).toEqual(SENDER);
    const dtls = s.dtlsTransport as Dtls;
    expect(fields(dtls, DTLS)).toEqual(DTLS);
    expect(dtls.state).toBe('connected');
    expect(typeof dtls.srtp.encrypt).toBe('function');
    // The debug option RtpForwarder reads (outboundPacketLoss) lives under config.debug.
    expect(kindOf(dtls.config?.debug)).toBe('object');
    const connection = dtls.iceTransport.connection;
    expect(fields(connection, CONNECTION)).toEqual(CONNECTION);
    const pair = connection.nominated as Pair;
    expect(fields(pair, PAIR)).toEqual(PAIR);
    expect(fields(pair.protocol.transport as Transport, TRANSPORT)).toEqual(TRANSPORT);
    expect(pair.protocol.transport?.type).toBe('udp');
    // peer-connection.ts's enlargeReceiveBuffers reaches the sockets through connection.protocols.
    const { protocols } = connection as unknown as {
      protocols?: { transport?: { socket?: { setRecvBufferSize?: unknown } } }[];
    };
    expect(kindOf(protocols)).toBe('array');
    expect(typeof protocols?.[0]?.transport?.socket?.setRecvBufferSize).toBe('function');
  });

  it("are the ones werift's own send path moves", () => {
    const s = sender as unknown as SenderState;
    // The packet sent above: werift continued its numbering and counted it where RtpForwarder does.
    expect(s.packetCount).toBe(1);
    expect(s.octetCount).toBe(5);
    expect(s.rtpCache.filter(Boolean)).toHaveLength(1);
    expect(s.rtcpRunning).toBe(true);
    expect(s.dtlsTransport?.packetsSent).toBeGreaterThanOrEqual(1);
    expect(s.dtlsTransport?.iceTransport.connection.nominated?.packetsSent).toBeGreaterThanOrEqual(1);
  });
});
