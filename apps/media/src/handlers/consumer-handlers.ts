import { notFound } from '../live-error.ts';
import { relaySources } from '../relay/layer-view.ts';
import { ConsumerTransport } from '../rtc/consumer-transport.ts';
import type { Session } from '../session.ts';
import type { Handler } from './handler.ts';

/** Student, or the teacher (to hear speakers): creates the receiving transport (replacing an earlier one). */
export const createConsumerTransport: Handler<'createConsumerTransport'> = (session) => {
  const { peer } = session.inRoom();
  return { transportId: peer.createConsumerTransport().id };
};

/**
 * Offers an m-line per stream the caller receives (new ones paused) and lists the consumers: a student the
 * teacher's streams and the other speakers', the teacher the speakers', a relay everybody's.
 */
export const consume: Handler<'consume'> = (session, payload) => {
  const { peer, room } = session.inRoom();
  const transport = peer.consumerTransportById(payload.transportId);
  // An edge node's relay (always in this thread) gets every webcam layer, each on an m-line of its own, and
  // every speaker's microphone, which the edge publishes as a stream of its own: not its own students' (their
  // edge has them already).
  if (session.claims.relay && transport instanceof ConsumerTransport) {
    return transport.consume(relaySources([...room.currentProducers(), ...room.speaking.streams(peer)]));
  }
  return transport.consume(room.sourcesFor(peer));
};

/** Applies the answer to the last `consume` offer. */
export const connectConsumerTransport: Handler<'connectConsumerTransport'> = async (session, payload) => {
  const { peer } = session.inRoom();
  await peer.consumerTransportById(payload.transportId).connect(payload.sdp);
  return {};
};

/** The caller's receiving transport, which holds their consumers. */
function receivingOf(session: Session) {
  const transport = session.inRoom().peer.receiving;
  if (!transport) throw notFound('consumer');
  return transport;
}

/** Starts forwarding a consumer (video at the next keyframe). */
export const resume: Handler<'resume'> = async (session, payload) => {
  await receivingOf(session).resume(payload.consumerId);
  return {};
};

/** Stops forwarding a consumer until `resume` (nothing of it is sent meanwhile). */
export const pause: Handler<'pause'> = async (session, payload) => {
  await receivingOf(session).pause(payload.consumerId);
  return {};
};

/** Fixes the webcam layer, or `auto`. */
export const setPreferredLayer: Handler<'setPreferredLayer'> = async (session, payload) => {
  await receivingOf(session).setPreferredLayer(payload.consumerId, payload.layer);
  return {};
};
