import type { StreamKind } from '@sea/contract/live';
import { MediaServer } from '../src/media-server.ts';
import { Peer } from '../src/peer.ts';
import { SyntheticTeacher } from './synthetic-teacher.ts';
import { LOOPBACK_RTC, RecordingReports } from './test-media-server.ts';

/**
 * A media server (no signalling) whose class 1 is live: a synthetic werift teacher publishes `kinds` (its
 * webcam video and microphone) at 30 frames per second. `close` ends both.
 */
export async function teachingServer(workers: number, kinds: ('webcamVideo' | 'webcamAudio')[]) {
  const server = new MediaServer({
    rtc: LOOPBACK_RTC,
    teacherGraceMs: 1_000,
    reports: new RecordingReports(),
    workers,
  });
  const teacher = new SyntheticTeacher();
  const room = server.openRoom(1);
  const peer = new Peer({ userId: 't', nickname: 't', role: 'teacher', classId: 1 }, LOOPBACK_RTC, () => {});
  room.startTeacher(peer);
  const transport = peer.createProducerTransport();
  await teacher.accept(await transport.connect(await teacher.offer()));
  teacher.start(30);
  for (const kind of kinds satisfies StreamKind[]) {
    transport.produce(kind, (kind === 'webcamVideo' ? teacher.video : teacher.audio).mid ?? '');
  }
  return {
    server,
    room,
    teacher,
    producers: room.currentProducers(),
    /** A student peer whose receiving transport is made as the server makes it (in a worker, if any). */
    student: (userId: string) =>
      new Peer(
        { userId, nickname: 's', role: 'student', classId: 1 },
        LOOPBACK_RTC,
        () => {},
        () => server.createReceivingTransport(),
      ),
    async close() {
      await server.close();
      await teacher.close();
    },
  };
}
