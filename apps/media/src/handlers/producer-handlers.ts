import { SPEAKER_KIND } from '@sea/contract/live';
import { badRequest, forbidden } from '../live-error.ts';
import type { Peer } from '../peer.ts';
import type { Room } from '../room/room.ts';
import type { Session } from '../session.ts';
import type { Handler } from './handler.ts';

/**
 * Who may publish: the teacher, a student only while speaking at the teacher's invitation, and an edge's relay
 * only while a student of its edge does (the media service enforces it here, whatever the client does).
 */
function asPublisher(session: Session): { peer: Peer; room: Room } {
  if (session.claims.role === 'teacher') return session.asTeacher();
  const current = session.asStudent();
  const { speaking } = current.room;
  const allowed = session.claims.relay
    ? speaking.speaksThrough(current.peer)
    : speaking.isSpeaking(current.peer);
  if (!allowed) throw forbidden('강사의 발언 요청을 수락한 뒤에만 소리를 보낼 수 있어요.');
  return current;
}

/** Teacher or speaking student: creates the publishing transport (replacing an earlier one and its streams). */
export const createProducerTransport: Handler<'createProducerTransport'> = (session) => {
  const { peer } = asPublisher(session);
  return { transportId: peer.createProducerTransport().id };
};

/** Teacher or speaking student: applies an offer (first or renegotiation) and answers. */
export const connectProducerTransport: Handler<'connectProducerTransport'> = async (session, payload) => {
  const { peer } = asPublisher(session);
  const sdp = await peer.producerTransportById(payload.transportId).connect(payload.sdp);
  return { sdp };
};

/**
 * Publishes the stream of an m-line: the teacher's kinds for the teacher, only the microphone
 * (`speakerAudio`) for a speaking student, or for an edge's relay that of its speaking student `userId`.
 * Everybody else hears `newProducer`.
 */
export const produce: Handler<'produce'> = (session, payload) => {
  const { peer, room } = asPublisher(session);
  const { userId } = payload;
  if (session.claims.relay) {
    if (userId === undefined) throw badRequest('중계 노드는 누구의 마이크인지(userId) 알려야 해요.');
    room.speaking.checkProduce(peer, payload.producerKind, userId);
    // One slot per speaker on the relay's connection: two students of one edge may speak at once.
    const transport = peer.producerTransportById(payload.transportId);
    const producer = transport.produce(SPEAKER_KIND, payload.mid, `${SPEAKER_KIND}:${userId}`);
    room.speaking.producedThrough(peer, userId, producer);
    return { producerId: producer.id };
  }
  if (userId !== undefined) throw forbidden('다른 사용자의 마이크는 보낼 수 없어요.');
  if (session.claims.role === 'teacher') {
    if (payload.producerKind === SPEAKER_KIND)
      throw badRequest('speakerAudio는 발언하는 수강생의 마이크에만 쓰여요.');
  } else {
    room.speaking.checkProduce(peer, payload.producerKind);
  }
  const producer = peer.producerTransportById(payload.transportId).produce(payload.producerKind, payload.mid);
  return { producerId: producer.id };
};

/** Teacher: stops one stream; students hear `producerClosed`. */
export const closeProducer: Handler<'closeProducer'> = (session, payload) => {
  const { peer } = session.asTeacher();
  peer.publishing?.closeProducer(payload.producerKind);
  return {};
};
