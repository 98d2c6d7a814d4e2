import { notFound } from '../live-error.ts';
import { relaySources } from '../relay/layer-view.ts';
import { ConsumerTransport } from '../rtc/consumer-transport.ts';
import type { Session } from '../session.ts';
import type { Handler } from './handler.ts';

/** Student: creates the receiving transport (replacing an earlier one). */
export const createConsumerTransport: Handler<'createConsumerTransport'> = (session) => {
  const { peer } = session.asStudent();
  return { transportId: peer.createConsumerTransport().id };
};

/** Student: offers an m-line per published stream (new ones paused) and lists the consumers. */
export const consume: Handler<'consume'> = (session, payload) => {
  const { peer, room } = session.asStudent();
  const transport = peer.consumerTransportById(payload.transportId);
  // An edge node's relay (always in this thread) gets every webcam layer, each on an m-line of its own.
  if (session.claims.relay && transport instanceof ConsumerTransport) {
    return transport.consume(relaySources(room.currentProducers()));
  }
  return transport.consume(room.currentProducers());
};

/** Student: applies the answer to the last `consume` offer. */
export const connectConsumerTransport: Handler<'connectConsumerTransport'> = async (session, payload) => {
  const { peer } = session.asStudent();
  await peer.consumerTransportById(payload.transportId).connect(payload.sdp);
  return {};
};

/** The student's receiving transport, which holds their consumers. */
function receivingOf(session: Session) {
  const transport = session.asStudent().peer.receiving;
  if (!transport) throw notFound('consumer');
  return transport;
}

/** Student: starts forwarding a consumer (video at the next keyframe). */
export const resume: Handler<'resume'> = async (session, payload) => {
  await receivingOf(session).resume(payload.consumerId);
  return {};
};

/** Student: fixes the webcam layer, or `auto`. */
export const setPreferredLayer: Handler<'setPreferredLayer'> = async (session, payload) => {
  await receivingOf(session).setPreferredLayer(payload.consumerId, payload.layer);
  return {};
};
