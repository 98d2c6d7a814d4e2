import { io } from 'socket.io-client';
import { LIVE_SOCKET_PATH, type LiveAnswer } from '@sea/contract/live';
import { signTicket } from '../../apps/media/test/test-media-server.ts';
import { RecordedTeacher } from './recorded-teacher.ts';
import type { Vp8Track } from './vp8-recording.ts';

const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Opens the room as the teacher and publishes the four streams from a {@link RecordedTeacher}, through the
 * same requests as the web client. Returns the teacher, the room's viewer count, and `close()`.
 */
export async function publishTeacher(url: string, recording: Vp8Track[], record = true) {
  const socket = io(url, {
    path: LIVE_SOCKET_PATH,
    transports: ['websocket'],
    auth: { ticket: await signTicket({ role: 'teacher' }) },
    reconnection: false,
  });
  const ask = async <T>(name: string, payload: unknown = {}) => {
    const answer = (await socket.timeout(REQUEST_TIMEOUT_MS).emitWithAck(name, payload)) as LiveAnswer<T>;
    if ('error' in answer) throw new Error(`${name}: ${answer.error.code}`);
    return answer.data;
  };
  let viewers = 0;
  socket.on('viewerCount', ({ count }: { count: number }) => (viewers = count));
  const teacher = new RecordedTeacher(recording);
  await ask('startRoom', { record });
  const { transportId } = await ask<{ transportId: string }>('createProducerTransport');
  const { sdp } = await ask<{ sdp: string }>('connectProducerTransport', {
    transportId,
    sdp: await teacher.offer(),
  });
  await teacher.accept(sdp);
  teacher.start();
  const publishedAt = performance.now();
  teacher.pc.connectionStateChange.subscribe((state) => {
    if (state === 'connected' || state === 'closed') return;
    // Worth seeing next to the figures: a teacher whose connection fails stops every student's media.
    const seconds = ((performance.now() - publishedAt) / 1000).toFixed(1);
    console.error(`bench teacher: connection ${state} ${seconds} s after publishing`);
  });
  const kinds = [
    ['webcamVideo', teacher.video],
    ['webcamAudio', teacher.audio],
    ['screenShareVideo', teacher.screen],
    ['screenShareAudio', teacher.systemAudio],
  ] as const;
  for (const [producerKind, transceiver] of kinds) {
    await ask('produce', { transportId, producerKind, mid: transceiver.mid ?? '' });
  }
  return {
    teacher,
    viewers: () => viewers,
    async close() {
      socket.disconnect();
      await teacher.close();
    },
  };
}
