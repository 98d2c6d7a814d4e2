import type { Handler } from './handler.ts';

/** Teacher: creates the publishing transport (replacing an earlier one and its streams). */
export const createProducerTransport: Handler<'createProducerTransport'> = (session) => {
  const { peer } = session.asTeacher();
  return { transportId: peer.createProducerTransport().id };
};

/** Teacher: applies an offer (first or renegotiation) and answers. */
export const connectProducerTransport: Handler<'connectProducerTransport'> = async (session, payload) => {
  const { peer } = session.asTeacher();
  const sdp = await peer.producerTransportById(payload.transportId).connect(payload.sdp);
  return { sdp };
};

/** Teacher: publishes the stream of an m-line; students hear `newProducer`. */
export const produce: Handler<'produce'> = (session, payload) => {
  const { peer } = session.asTeacher();
  const producer = peer.producerTransportById(payload.transportId).produce(payload.producerKind, payload.mid);
  return { producerId: producer.id };
};

/** Teacher: stops one stream; students hear `producerClosed`. */
export const closeProducer: Handler<'closeProducer'> = (session, payload) => {
  const { peer } = session.asTeacher();
  peer.publishing?.closeProducer(payload.producerKind);
  return {};
};
