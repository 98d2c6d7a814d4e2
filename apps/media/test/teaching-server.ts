import type { StreamKind } from '@sea/contract/live';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { MediaServer } from '../src/media-server.ts';
import { type Notify, Peer } from '../src/peer.ts';
import { SyntheticTeacher } from './synthetic-teacher.ts';
import { LOOPBACK_RTC, RecordingReports } from './test-media-server.ts';

/**
 * A media server (no signalling) whose class 1 is live: a synthetic werift teacher publishes `kinds` at 30
 * frames per second (the screen share's two only with `screen`). `close` ends both.
 */
export async function teachingServer(
  workers: number,
  kinds: StreamKind[],
  options: {
    recordingsDir?: string;
    /** The object store's recordings: the session goes up as it is recorded. */
    recordingStore?: FileStore;
    screen?: boolean;
    record?: boolean;
    notify?: Notify;
    /** The teacher's RTP timestamps follow the wall clock (SyntheticTeacher's `wallClock`). */
    wallClock?: boolean;
  } = {},
) {
  const server = new MediaServer({
    rtc: LOOPBACK_RTC,
    teacherGraceMs: 1_000,
    reports: new RecordingReports(),
    workers,
    recordingsDir: options.recordingsDir ?? null,
    recordingStore: options.recordingStore ?? null,
  });
  const teacher = new SyntheticTeacher(1_000, {
    screen: options.screen === true,
    wallClock: options.wallClock === true,
  });
  await server.loadRooms();
  const room = server.openRoom(1, { teacherNickname: '파도선생', record: options.record });
  const peer = new Peer(
    { userId: 't', nickname: 't', role: 'teacher', classId: 1 },
    LOOPBACK_RTC,
    options.notify ?? (() => {}),
  );
  room.startTeacher(peer);
  const transport = peer.createProducerTransport();
  await teacher.accept(await transport.connect(await teacher.offer()));
  teacher.start(30);
  const midOf = (kind: StreamKind) =>
    ({
      webcamVideo: teacher.video,
      webcamAudio: teacher.audio,
      screenShareVideo: teacher.screen,
      screenShareAudio: teacher.systemAudio,
      speakerAudio: null,
    })[kind]?.mid ?? '';
  for (const kind of kinds) transport.produce(kind, midOf(kind));
  return {
    server,
    room,
    teacher,
    transport,
    /** The mid of a stream's transceiver (to publish it again). */
    midOf,
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
