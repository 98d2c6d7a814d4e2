import { notFound } from '../live-error.ts';
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
  return peer.consumerTransportById(payload.transportId).consume(room.currentProducers());
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
