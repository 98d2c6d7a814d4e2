import { LAYER_ENCODINGS, STEP_OUT_MS } from '@sea/contract/live';
import { conflict, forbidden, full, notLive } from '../live-error.ts';
import { Peer, type PeerInfo } from '../peer.ts';
import { FORWARDED_CODECS } from '../rtc/peer-connection.ts';
import type { Session } from '../session.ts';
import type { Handler } from './handler.ts';

function peerInfo({ claims }: Session): PeerInfo {
  return { userId: claims.sub, nickname: claims.nickname, role: claims.role, classId: claims.classId };
}

function newPeer(session: Session): Peer {
  return new Peer(peerInfo(session), session.server.options.rtc, session.notify, () =>
    session.server.createReceivingTransport(),
  );
}

/**
 * How long `startRoom` waits for the API server to take the report of a new room before answering: so that
 * when the teacher's page shows the lecture started, the class is listed live and students may enter. An API
 * server that does not answer in time delays nothing more (the report is retried).
 */
export const START_REPORT_WAIT_MS = 2_000;

/**
 * Teacher: opens the class's room (or takes it over from an earlier connection); the class goes live. Only
 * the teacher names the speakers a new room keeps places for: a student cannot give themself a turn.
 */
export const startRoom: Handler<'startRoom'> = async (session, { record, speakers }) => {
  if (session.claims.role !== 'teacher') throw forbidden('강의는 강사만 시작할 수 있어요.', true);
  const room = session.server.openRoom(session.claims.classId, {
    record,
    teacherNickname: session.claims.nickname,
    speakers,
  });
  const peer = newPeer(session);
  session.enter(peer, room, () => room.startTeacher(peer));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    session.server.reported(),
    new Promise((resolve) => (timer = setTimeout(resolve, START_REPORT_WAIT_MS))),
  ]);
  clearTimeout(timer);
  return { producers: room.producerList() };
};

/**
 * Student: joins the open room of the class. Whether the class is live is this service's own knowledge (the
 * room is open), not the ticket's: a ticket fetched while the room's report was on its way is as good. A node
 * at its capacity refuses a new student (`full`) rather than degrading everyone's stream.
 */
export const joinRoom: Handler<'joinRoom'> = (session) => {
  const { claims, server } = session;
  if (claims.role !== 'student') throw forbidden('강사는 강의를 시작해서 입장해요.', true);
  let room = server.room(claims.classId);
  // A ticket naming the origin: this node is an edge of the class and pulls it from there (REDIS_URL).
  if ((!room || room.isClosedNow) && claims.origin)
    room = server.openEdgeRoom(claims.classId, claims.origin) ?? undefined;
  if (!room || room.isClosedNow) throw notLive();
  if (claims.relay) {
    // An edge node pulling the class: in-thread receiving (its layer views live here), not a student.
    if (server.isEdge(claims.classId))
      throw forbidden('다른 노드에서 가져온 강의는 다시 내보내지 않아요.', true);
    const relay = new Peer(peerInfo(session), server.options.rtc, session.notify);
    session.enter(relay, room, () => room.addRelay(relay));
    return { producers: room.producerList() };
  }
  if (!server.hasRoomFor(claims.sub, room)) throw full();
  const peer = newPeer(session);
  session.enter(peer, room, () => room.addStudent(peer));
  server.changed.emit();
  peer.closed.subscribe(() => server.changed.emit());
  return { producers: room.producerList() };
};

/** Teacher: steps out without ending the lecture; the room waits STEP_OUT_MS for a teacher connection. */
export const stepOut: Handler<'stepOut'> = (session) => {
  const { room } = session.asTeacher();
  room.stepOut();
  return { awayMs: STEP_OUT_MS };
};

/** Teacher: pauses or resumes the recording; everybody in the room hears the new state. */
export const setRecording: Handler<'setRecording'> = (session, { recording }) => {
  const { room } = session.asTeacher();
  if (!room.setRecordingPaused(!recording)) throw conflict('이 강의는 녹화하지 않기로 하고 시작했어요.');
  return room.recordingState;
};

/**
 * Both: the streams currently published; to a relay, the speakers' microphones too (it pulls them), but its
 * own students'.
 */
export const getProducers: Handler<'getProducers'> = (session) => {
  const { peer, room } = session.inRoom();
  const speakers = session.claims.relay ? room.speaking.streams(peer) : [];
  return {
    producers: [
      ...room.producerList(),
      ...speakers.map((producer) => ({ producerId: producer.id, producerKind: producer.kind })),
    ],
  };
};

/** Both: what the client needs to set up its connection. */
export const getRouterRtpCapabilities: Handler<'getRouterRtpCapabilities'> = (session) => ({
  codecs: FORWARDED_CODECS,
  iceServers: session.server.options.rtc.iceServers,
  layers: LAYER_ENCODINGS.map((encoding) => ({ ...encoding })),
});
