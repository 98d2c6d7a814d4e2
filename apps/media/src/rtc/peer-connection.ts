import type { Socket } from 'node:dgram';
import { isIPv4 } from 'node:net';
import {
  RTCPeerConnection,
  RTCRtpCodecParameters,
  useAbsSendTime,
  useNACK,
  usePLI,
  useREMB,
  useSdesMid,
  useSdesRTPStreamId,
  type RTCSessionDescription,
} from 'werift';
import type { IceServer } from '@sea/contract/live-ticket';
import type { LiveCodec } from '@sea/contract/live';
import { iceLiteAtSessionLevel } from '../forwarding/sdp-munging.ts';
import { installDtlsHelloOnce } from './dtls-hello-once.ts';
import { installIceLiteSelection } from './ice-lite-selection.ts';
import { installSrtpKeyObjects } from './srtp-key-objects.ts';
import { log } from '../log.ts';

/** Network settings of every peer connection the SFU opens. */
export type RtcOptions = {
  /** The address written into ICE candidates: what clients must reach. */
  announcedIp: string;
  /** The local address the UDP sockets bind to (the announced one, or e.g. 0.0.0.0 behind a 1:1 NAT). */
  listenIp: string;
  /** UDP port range, or null for any free port (tests). */
  portRange: [number, number] | null;
  /** STUN/TURN servers. Always explicit: werift's own default is a public STUN server. */
  iceServers: IceServer[];
  /**
   * Full ICE instead of lite: for an edge node's connection to the origin node, where both ends are this
   * service and one must run the checks (two lite agents never connect). Browsers always meet lite.
   */
  fullIce?: boolean;
};

/** The codecs the SFU forwards (it never transcodes, so the teacher's browser must send these). */
export const FORWARDED_CODECS: LiveCodec[] = [
  { kind: 'audio', mimeType: 'audio/opus', clockRate: 48_000, channels: 2 },
  { kind: 'video', mimeType: 'video/VP8', clockRate: 90_000 },
];

/** How long to wait for STUN/TURN candidates before answering without them, in seconds. */
const STUN_GATHER_TIMEOUT_S = 2;

let openConnections = 0;

/** Number of the peer connections made by {@link createPeerConnection} and not closed yet (leak checks). */
export function openPeerConnections(): number {
  return openConnections;
}

/**
 * A werift peer connection for one side of the SFU: `publisher` receives the teacher's streams, `subscriber`
 * sends to one student.
 *
 * - ICE: lite (the client checks and nominates); the configured servers only; host candidates only on the
 *   announced address (werift would otherwise offer every interface address); the configured port range.
 * - No transport-cc anywhere (werift's feedback is wrong); video has NACK, PLI and REMB feedback.
 * - Header extensions: mid (and rid from the teacher, for simulcast); abs-send-time towards students so their
 *   browsers can compute the REMB the SFU reads.
 */
export function createPeerConnection(
  options: RtcOptions,
  role: 'publisher' | 'subscriber',
): RTCPeerConnection {
  const ipv4 = isIPv4(options.announcedIp);
  // SRTP with prepared keys: the same bytes as werift's own, without preparing the key once per packet.
  installSrtpKeyObjects();
  // A retransmitted ClientHello must not restart the handshake with new keys (werift re-runs its flight 4).
  installDtlsHelloOnce();
  // A lite connection uses the pair of the first valid check, so DTLS need not wait for the nominating one.
  installIceLiteSelection();
  const pc = new RTCPeerConnection({
    // ICE-lite, like other SFUs on a reachable address: the browser runs the checks. werift's full ICE sends
    // consent-freshness checks that Chrome 156 never answered here, so every connection "failed" 30 s in.
    iceLite: options.fullIce !== true,
    iceServers: options.iceServers.map((server) => ({ ...server })),
    icePortRange: options.portRange ?? undefined,
    iceUseIpv4: false,
    iceUseIpv6: false,
    iceAdditionalHostAddresses: [options.announcedIp],
    iceInterfaceAddresses: ipv4 ? { udp4: options.listenIp } : { udp6: options.listenIp },
    iceUseTcp: false,
    iceStunGatherTimeout: STUN_GATHER_TIMEOUT_S,
    codecs: {
      audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48_000, channels: 2 })],
      video: [
        new RTCRtpCodecParameters({
          mimeType: 'video/VP8',
          clockRate: 90_000,
          rtcpFeedback: [useNACK(), usePLI(), useREMB()],
        }),
      ],
    },
    headerExtensions: {
      audio: [useSdesMid()],
      video: role === 'publisher' ? [useSdesMid(), useSdesRTPStreamId()] : [useSdesMid(), useAbsSendTime()],
    },
  });
  openConnections += 1;
  // close() moves the signalling state to `closed` synchronously, and only close() does.
  const counted = pc.signalingStateChange.subscribe((state) => {
    if (state !== 'closed') return;
    openConnections -= 1;
    counted.unSubscribe();
  });
  return pc;
}

/**
 * Sets the connection's offer or answer as its local description, which starts gathering. Full ICE (an edge's
 * connection to its origin) never gathers from werift's fallback STUN server.
 */
export function setLocal(
  pc: RTCPeerConnection,
  description: RTCSessionDescription,
  options: RtcOptions,
): Promise<unknown> {
  if (options.fullIce) withoutStunFallback(pc, options);
  return pc.setLocalDescription(description);
}

/**
 * The local description to hand out (undefined: there is none), read once the connection has {@link gathered}
 * its candidates; its sockets, bound by then, get their larger receive buffers first. A lite agent's
 * `a=ice-lite` is put at the session level, where browsers read it ({@link iceLiteAtSessionLevel}).
 */
export function localSdp(pc: RTCPeerConnection): string | undefined {
  enlargeReceiveBuffers(pc);
  const sdp = pc.localDescription?.sdp;
  return sdp === undefined ? undefined : iceLiteAtSessionLevel(sdp);
}

/**
 * Clears werift's fallback STUN server (a public one, queried while a full-ICE agent gathers even with
 * `iceServers: []`) unless a STUN server is configured: call just before setLocalDescription, which starts
 * gathering. Lite agents do not gather server-reflexive candidates, so only full ICE needs it.
 */
function withoutStunFallback(pc: RTCPeerConnection, options: RtcOptions): void {
  const urls = options.iceServers.flatMap((server) =>
    Array.isArray(server.urls) ? server.urls : [server.urls],
  );
  if (urls.some((url) => url.startsWith('stun:'))) return;
  for (const transport of pc.iceTransports) transport.connection.stunServer = undefined;
}

const GATHER_TIMEOUT_MS = 5_000;

/** Receive buffer of each media socket: room for a keyframe burst while the event loop is busy. */
const RECEIVE_BUFFER_BYTES = 4 * 1024 * 1024;

type SocketHolder = { connection?: { protocols?: { transport?: { socket?: Socket } }[] } };

/**
 * Enlarges the UDP receive buffers of a connection's sockets. werift keeps its sockets private; with the
 * system default (about 200 kB) a 720p keyframe burst arriving while Node is busy overflows the buffer, and
 * the teacher's browser, seeing that loss in our receiver reports, drops its upper simulcast layers. The kernel
 * caps the size at net.core.rmem_max.
 */
function enlargeReceiveBuffers(pc: RTCPeerConnection): void {
  for (const ice of pc.iceTransports as unknown as SocketHolder[]) {
    for (const protocol of ice.connection?.protocols ?? []) {
      try {
        protocol.transport?.socket?.setRecvBufferSize(RECEIVE_BUFFER_BYTES);
      } catch (error) {
        // Only a performance hint: the connection works with the default buffer.
        log.warn({ err: error }, 'could not enlarge a UDP receive buffer');
      }
    }
  }
}

/**
 * Resolves once the connection has gathered its candidates (so the SDP it hands out carries them), or has
 * closed (its gathering never completes then; the caller checks whether it is still open).
 */
export async function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete' || pc.iceTransports.length === 0) return;
  if (pc.signalingState === 'closed') return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, GATHER_TIMEOUT_MS);
    const gathering = pc.iceGatheringStateChange.subscribe((state) => {
      if (state === 'complete') done();
    });
    const signaling = pc.signalingStateChange.subscribe((state) => {
      if (state === 'closed') done();
    });
    function done() {
      clearTimeout(timer);
      gathering.unSubscribe();
      signaling.unSubscribe();
      resolve();
    }
  });
}
