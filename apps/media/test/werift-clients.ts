import {
  GenericNack,
  PictureLossIndication,
  ReceiverEstimatedMaxBitrate,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  RtcpPayloadSpecificFeedback,
  RtcpTransportLayerFeedback,
  serializeSdesMid,
  serializeSdesRTPStreamID,
  useAbsSendTime,
  useNACK,
  usePLI,
  useREMB,
  useSdesMid,
  useSdesRTPStreamId,
  type RTCDtlsTransport,
  type RTCRtpTransceiver,
} from 'werift';
import { LAYERS } from '@sea/contract/live';

/**
 * werift clients of the SFU for the media tests and the SFU benchmark (which imports this file): peer
 * connections that look like the teacher's or a student's browser on the wire, on loopback only.
 */

/**
 * Loopback-only ICE for werift test clients: no interface enumeration, no STUN. `address` is another local
 * address to use instead of 127.0.0.1 (the SFU benchmark's Janus, which skips loopback interfaces).
 */
export function loopbackClient(address = '127.0.0.1') {
  return {
    iceServers: [],
    iceUseIpv4: false,
    iceUseIpv6: false,
    iceAdditionalHostAddresses: [address],
    iceInterfaceAddresses: { udp4: address },
  };
}

/**
 * A client's peer connection: `teacher` publishes like the teacher's browser (mid and rid header extensions,
 * transport-cc offered as Chrome offers it), `student` receives like a student's (mid and abs-send-time; NACK,
 * PLI and REMB feedback on video).
 */
export function createClientPeerConnection(role: 'teacher' | 'student', address?: string): RTCPeerConnection {
  const videoFeedback = [useNACK(), usePLI(), useREMB()];
  if (role === 'teacher') videoFeedback.push({ type: 'transport-cc' });
  return new RTCPeerConnection({
    ...loopbackClient(address),
    codecs: {
      audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48_000, channels: 2 })],
      video: [
        new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90_000, rtcpFeedback: videoFeedback }),
      ],
    },
    headerExtensions: {
      audio: [useSdesMid()],
      video: role === 'teacher' ? [useSdesMid(), useSdesRTPStreamId()] : [useSdesMid(), useAbsSendTime()],
    },
  });
}

/** The teacher's m-lines in the browser's order: webcam video (simulcast q, h, f), webcam audio, then optionally the screen and the system audio. */
export type TeacherTransceivers = {
  video: RTCRtpTransceiver;
  audio: RTCRtpTransceiver;
  screen: RTCRtpTransceiver | null;
  systemAudio: RTCRtpTransceiver | null;
};

/** Adds the teacher's m-lines to a `teacher` peer connection. */
export function addTeacherTransceivers(pc: RTCPeerConnection, screen: boolean): TeacherTransceivers {
  const video = pc.addTransceiver('video', {
    direction: 'sendonly',
    simulcast: LAYERS.map((rid) => ({ rid, direction: 'send' as const })),
  });
  const audio = pc.addTransceiver('audio', { direction: 'sendonly' });
  if (!screen) return { video, audio, screen: null, systemAudio: null };
  return {
    video,
    audio,
    screen: pc.addTransceiver('video', { direction: 'sendonly' }),
    systemAudio: pc.addTransceiver('audio', { direction: 'sendonly' }),
  };
}

/**
 * Sets a local description without any STUN server. werift's full-ICE agent (0.25.2) falls back to
 * stun.l.google.com:19302 when `iceServers` has no STUN entry, even for `iceServers: []`, and queries it while
 * gathering; test and benchmark clients must never leave loopback. Gathering starts in setLocalDescription, so
 * the fallback is cleared on every ICE transport just before.
 */
export async function setLocalWithoutStun(
  pc: RTCPeerConnection,
  description: Parameters<RTCPeerConnection['setLocalDescription']>[0],
): Promise<void> {
  for (const transport of pc.iceTransports) transport.connection.stunServer = undefined;
  await pc.setLocalDescription(description);
}

/** The local SDP once gathering is complete (no trickle ICE). */
export async function gatheredSdp(pc: RTCPeerConnection): Promise<string> {
  if (pc.iceGatheringState !== 'complete') {
    await pc.iceGatheringStateChange.watch((state) => state === 'complete', 5_000);
  }
  const sdp = pc.localDescription?.sdp;
  if (!sdp) throw new Error('no local description');
  return sdp;
}

/** A publisher's offer, with its candidates. */
export async function offerOf(pc: RTCPeerConnection): Promise<string> {
  await setLocalWithoutStun(pc, await pc.createOffer());
  return gatheredSdp(pc);
}

/** A receiver's answer to the SFU's offer, with its candidates; `prepare` runs between the two descriptions. */
export async function answerTo(pc: RTCPeerConnection, offer: string, prepare?: () => void): Promise<string> {
  await pc.setRemoteDescription({ type: 'offer', sdp: offer });
  prepare?.();
  await setLocalWithoutStun(pc, await pc.createAnswer());
  return gatheredSdp(pc);
}

/**
 * Applies the SFU's answer to a publisher's offer and waits until the connection is up; `prepare` runs once the
 * answer is applied (its transports final), before the wait.
 */
export async function acceptAnswer(
  pc: RTCPeerConnection,
  answer: string,
  prepare?: () => void,
): Promise<void> {
  await pc.setRemoteDescription({ type: 'answer', sdp: answer });
  prepare?.();
  await pc.connectionStateChange.watch((state) => state === 'connected', 10_000);
}

/** The header extensions a browser writes on a stream's packets: mid, and the rid of a simulcast layer. */
export function streamExtensions(transceiver: RTCRtpTransceiver, rid: string | null) {
  const ids = new Map(transceiver.headerExtensions.map((e) => [e.uri, e.id]));
  const out = [{ id: ids.get(useSdesMid().uri) ?? 0, payload: serializeSdesMid(transceiver.mid ?? '') }];
  if (rid) out.push({ id: ids.get(useSdesRTPStreamId().uri) ?? 0, payload: serializeSdesRTPStreamID(rid) });
  return out;
}

/** What a publisher does with the SFU's feedback. */
export type FeedbackHandlers = {
  pli?: (ssrc: number) => void;
  nack?: (ssrc: number, lost: number[]) => void;
  remb?: (bitrate: number) => void;
};

/** Calls the handlers for the PLIs, NACKs and REMBs the SFU sends on `dtls`. */
export function onFeedback(dtls: RTCDtlsTransport, handlers: FeedbackHandlers): void {
  dtls.onRtcp.subscribe((packet) => {
    if (packet instanceof RtcpPayloadSpecificFeedback) {
      const feedback = packet.feedback;
      if (feedback instanceof PictureLossIndication) handlers.pli?.(feedback.mediaSsrc);
      else if (feedback instanceof ReceiverEstimatedMaxBitrate) handlers.remb?.(Number(feedback.bitrate));
    } else if (packet instanceof RtcpTransportLayerFeedback && packet.feedback instanceof GenericNack) {
      handlers.nack?.(packet.feedback.mediaSourceSsrc, [...packet.feedback.lost]);
    }
  });
}
