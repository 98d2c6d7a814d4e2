import { forbidden } from '../live-error.ts';
import type { Handler } from './handler.ts';

/** Teacher: invites a student in the room to speak; everybody hears `speakerChanged`. */
export const inviteToSpeak: Handler<'inviteToSpeak'> = (session, { userId }) => {
  const { room } = session.asTeacher();
  room.inviteToSpeak(userId);
  return room.speakingView(null);
};

/**
 * Student: accepts the teacher's invitation; may publish their microphone from now on. On an edge, the origin
 * holds the seat: it takes the acceptance first (and may refuse it, the teacher having ended it meanwhile).
 */
export const acceptSpeak: Handler<'acceptSpeak'> = async (session) => {
  const { peer, room } = session.asStudent();
  const upstream = room.speaking.upstream;
  if (upstream && room.speaking.holds(peer) && !room.speaking.isSpeaking(peer)) {
    await upstream.accept(peer.info.userId);
  }
  room.speaking.accept(peer);
  return room.speakingView(peer.info.userId);
};

/**
 * Ends speaking: the teacher's for one student or all; a student's for themself only (also declining an
 * invitation). Ending what does not exist is no error: the outcome the caller wants holds.
 */
export const endSpeaking: Handler<'endSpeaking'> = (session, { userId }) => {
  if (session.claims.role === 'teacher') {
    const { room } = session.asTeacher();
    if (userId === undefined) room.speaking.endAll();
    else room.speaking.end(userId);
    return room.speakingView(null);
  }
  const { peer, room } = session.asStudent();
  if (userId !== undefined && userId !== peer.info.userId)
    throw forbidden('다른 수강생의 발언은 강사만 끝낼 수 있어요.');
  if (room.speaking.holds(peer)) room.speaking.end(peer.info.userId);
  return room.speakingView(peer.info.userId);
};
