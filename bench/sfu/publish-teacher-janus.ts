import { JanusVideoRoomHandle } from './janus-client.ts';
import { JANUS_ICE_ADDRESS } from './janus-server.ts';
import { RecordedTeacher } from './recorded-teacher.ts';
import type { Vp8Track } from './vp8-recording.ts';

/** The VideoRoom of the benchmark (one per Janus process). */
export const JANUS_ROOM = 1234;

/** What a light student needs to subscribe in Janus: the room, the teacher's feed, the kind of each stream. */
export type JanusTarget = {
  url: string;
  room: number;
  feed: number;
  /** The teacher's m-line mid → our name for the stream (webcamVideo, webcamAudio...). */
  kindByFeedMid: Record<string, string>;
};

/**
 * Creates the VideoRoom and publishes the four recorded streams into it as one publisher with one peer
 * connection (Janus 1.x: several audio and video streams per publisher), the webcam as three rid simulcast
 * layers. The room has no bitrate cap and no periodic keyframe requests: PLIs come only when a subscriber
 * needs one, as with ours.
 */
export async function publishTeacherJanus(url: string, recording: Vp8Track[]) {
  const handle = await JanusVideoRoomHandle.attach(url);
  await handle.request({
    request: 'create',
    room: JANUS_ROOM,
    publishers: 1,
    bitrate: 0,
    fir_freq: 0,
    audiocodec: 'opus',
    videocodec: 'vp8',
    notify_joining: false,
    record: false,
  });
  const teacher = new RecordedTeacher(recording, JANUS_ICE_ADDRESS);
  const offer = await teacher.offer();
  // The teacher's `a=simulcast:send` lists q;h;f, lowest first; Janus takes the first rid as the highest unless
  // told so.
  const joined = await handle.message(
    { request: 'joinandconfigure', room: JANUS_ROOM, ptype: 'publisher', display: 'teacher' },
    { type: 'offer', sdp: offer, rid_order: 'lmh' },
  );
  if (!joined.jsep) throw new Error('janus: no answer to the teacher offer');
  await teacher.accept(joined.jsep.sdp);
  teacher.start();
  const feed = Number(joined.data.id);
  const kindByFeedMid: Record<string, string> = {
    [teacher.video.mid ?? '']: 'webcamVideo',
    [teacher.audio.mid ?? '']: 'webcamAudio',
    [teacher.screen.mid ?? '']: 'screenShareVideo',
    [teacher.systemAudio.mid ?? '']: 'screenShareAudio',
  };
  const target: JanusTarget = { url, room: JANUS_ROOM, feed, kindByFeedMid };
  return {
    teacher,
    target,
    async close() {
      await handle.close();
      await teacher.close();
    },
  };
}
