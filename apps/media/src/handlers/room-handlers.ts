import { LAYER_ENCODINGS } from '@sea/contract/live';
import { forbidden, notLive } from '../live-error.ts';
import { Peer } from '../peer.ts';
import { FORWARDED_CODECS } from '../rtc/peer-connection.ts';
import type { Session } from '../session.ts';
import type { Handler } from './handler.ts';

function newPeer(session: Session): Peer {
  const { claims } = session;
  return new Peer(
    { userId: claims.sub, nickname: claims.nickname, role: claims.role, classId: claims.classId },
    session.server.options.rtc,
    session.notify,
    () => session.server.createReceivingTransport(),
  );
}

/** Teacher: opens the class's room (or takes it over from an earlier connection) and marks the class live. */
export const startRoom: Handler<'startRoom'> = (session) => {
  if (session.claims.role !== 'teacher') throw forbidden('강의는 강사만 시작할 수 있어요.', true);
  const room = session.server.openRoom(session.claims.classId);
  const peer = newPeer(session);
  session.enter(peer, room, () => room.startTeacher(peer));
  return { producers: room.producerList() };
};

/** Student: joins the open room of a live class. */
export const joinRoom: Handler<'joinRoom'> = (session) => {
  if (session.claims.role !== 'student') throw forbidden('강사는 강의를 시작해서 입장해요.', true);
  const room = session.server.room(session.claims.classId);
  if (!session.claims.live || !room || room.isClosedNow) throw notLive();
  const peer = newPeer(session);
  session.enter(peer, room, () => room.addStudent(peer));
  return { producers: room.producerList() };
};

/** Both: the streams currently published. */
export const getProducers: Handler<'getProducers'> = (session) => ({
  producers: session.inRoom().room.producerList(),
});

/** Both: what the client needs to set up its connection. */
export const getRouterRtpCapabilities: Handler<'getRouterRtpCapabilities'> = (session) => ({
  codecs: FORWARDED_CODECS,
  iceServers: session.server.options.rtc.iceServers,
  layers: LAYER_ENCODINGS.map((encoding) => ({ ...encoding })),
});
