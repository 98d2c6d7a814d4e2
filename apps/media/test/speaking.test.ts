import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsumerInfo, SpeakingView } from '@sea/contract/live';
import type { Socket } from 'socket.io-client';
import { acceptAndSpeak, expectUninvitedRefused, SyntheticSpeaker } from './synthetic-speaker.ts';
import { SyntheticStudent } from './synthetic-student.ts';
import { collect, ok, request, startTestMedia, until } from './test-media-server.ts';

type Media = Awaited<ReturnType<typeof startTestMedia>>;
let media: Media;
const closers: (() => Promise<void>)[] = [];

const teacherClaims = { role: 'teacher', sub: 'teacher-1', nickname: '파도선생' } as const;
const studentClaims = (n: number) =>
  ({ role: 'student', sub: `student-${n}`, nickname: `학생${n}` }) as const;

async function startRoom() {
  const socket = await media.connectAs(teacherClaims);
  await ok(socket, 'startRoom');
  return socket;
}

async function join(n: number) {
  const socket = await media.connectAs(studentClaims(n));
  await ok(socket, 'joinRoom');
  return socket;
}

/** A receiving side (a student's, or the teacher's for the speakers) kept in step with `consume`. */
class Listener {
  readonly client = new SyntheticStudent();
  consumers: ConsumerInfo[] = [];
  readonly socket: Socket;
  private transportId = '';
  constructor(socket: Socket) {
    this.socket = socket;
    closers.push(() => this.client.close());
  }

  async sync(): Promise<ConsumerInfo[]> {
    if (!this.transportId)
      ({ transportId: this.transportId } = await ok(this.socket, 'createConsumerTransport'));
    const offer = await ok(this.socket, 'consume', { transportId: this.transportId });
    const sdp = await this.client.answer(offer.sdp);
    await ok(this.socket, 'connectConsumerTransport', { transportId: this.transportId, sdp });
    for (const consumer of offer.consumers) {
      if (!this.consumers.some((c) => c.consumerId === consumer.consumerId))
        await ok(this.socket, 'resume', { consumerId: consumer.consumerId });
    }
    this.consumers = offer.consumers;
    return offer.consumers;
  }

  /** Packets received from one producer's stream. */
  packetsOf(producerId: string): number {
    const consumer = this.consumers.find((c) => c.producerId === producerId);
    return consumer ? this.client.packets(consumer.mid).length : 0;
  }
}

/** A student who accepts, publishes their microphone and keeps sending; answers its producer id. */
async function speak(socket: Socket, mark: number) {
  const spoken = await acceptAndSpeak(socket, mark);
  closers.push(() => spoken.speaker.close());
  return spoken;
}

describe.each([
  { where: 'in the main thread', workers: 0 },
  { where: 'in two forwarding workers', workers: 2 },
])('speaking at the teacher’s invitation, $where', ({ workers }) => {
  beforeEach(async () => {
    media = await startTestMedia({ workers });
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await media.close();
  });

  it('an invited student who accepted is heard by the teacher and another student, not by themself', async () => {
    const host = await startRoom();
    const one = await join(1);
    const two = await join(2);
    const seenByTwo = collect<SpeakingView>(two, 'speakerChanged');
    const newProducers = collect<{ producerKind: string }>(two, 'newProducer');
    const invited = await ok(host, 'inviteToSpeak', { userId: 'student-1' });
    expect(invited).toEqual({
      speakers: [{ userId: 'student-1', nickname: '학생1', state: 'invited', producerId: null }],
      self: 'none',
    });
    const { producerId } = await speak(one, 0x31);
    await until(() => newProducers.some((p) => p.producerKind === 'speakerAudio'), 3_000, 'newProducer');
    expect(seenByTwo.at(-1)).toEqual({
      speakers: [{ userId: 'student-1', nickname: '학생1', state: 'speaking', producerId }],
      self: 'none',
    });

    const teacherEar = new Listener(host);
    const studentEar = new Listener(two);
    expect((await teacherEar.sync()).map((c) => c.producerKind)).toEqual(['speakerAudio']);
    expect((await studentEar.sync()).map((c) => c.producerId)).toContain(producerId);
    await until(() => teacherEar.packetsOf(producerId) > 10, 5_000, 'the teacher hearing the speaker');
    await until(() => studentEar.packetsOf(producerId) > 10, 5_000, 'the other student hearing the speaker');

    // The speaker receives the room, not their own voice (here the room has no other stream: no consumer).
    const { transportId } = await ok(one, 'createConsumerTransport');
    expect((await ok(one, 'consume', { transportId })).consumers).toEqual([]);
  });

  it('refuses an uninvited student’s publishing, and a student’s video even when speaking', async () => {
    const host = await startRoom();
    const one = await join(1);
    const forbidden = { error: { code: 'forbidden', message: expect.stringMatching(/발언|마이크/) } };
    await expectUninvitedRefused(one, forbidden);

    // Invited but not accepted yet: still nothing.
    await ok(host, 'inviteToSpeak', { userId: 'student-1' });
    expect(await request(one, 'createProducerTransport')).toMatchObject(forbidden);

    await ok(one, 'acceptSpeak');
    const speaker = new SyntheticSpeaker(0x41, { video: true });
    closers.push(() => speaker.close());
    const { transportId } = await ok(one, 'createProducerTransport');
    const { sdp } = await ok(one, 'connectProducerTransport', { transportId, sdp: await speaker.offer() });
    await speaker.accept(sdp);
    for (const producerKind of ['webcamVideo', 'screenShareVideo', 'webcamAudio'] as const) {
      expect(
        await request(one, 'produce', { transportId, producerKind, mid: speaker.video?.mid ?? '' }),
      ).toMatchObject({
        error: { code: 'forbidden', message: '수강생은 발언할 때 마이크 소리만 보낼 수 있어요.' },
      });
    }
    // Its microphone's kind on the video m-line is refused by the m-line's media.
    expect(
      await request(one, 'produce', {
        transportId,
        producerKind: 'speakerAudio',
        mid: speaker.video?.mid ?? '',
      }),
    ).toMatchObject({ error: { code: 'conflict' } });
    expect(media.server.room(7)?.speaking.streams()).toEqual([]);
  });

  it('refuses a third speaker with a reason in Korean; ending one frees the seat', async () => {
    const host = await startRoom();
    await join(1);
    await join(2);
    await join(3);
    await ok(host, 'inviteToSpeak', { userId: 'student-1' });
    await ok(host, 'inviteToSpeak', { userId: 'student-2' });
    // Inviting again is no new seat.
    await ok(host, 'inviteToSpeak', { userId: 'student-2' });
    expect(await request(host, 'inviteToSpeak', { userId: 'student-3' })).toEqual({
      error: {
        code: 'conflict',
        message: '동시에 발언할 수 있는 수강생은 2명까지예요. 먼저 다른 수강생의 발언을 끝내 주세요.',
      },
    });
    expect(await request(host, 'inviteToSpeak', { userId: 'nobody' })).toMatchObject({
      error: { code: 'conflict', message: '그 수강생은 지금 이 강의실에 없어요.' },
    });
    await ok(host, 'endSpeaking', { userId: 'student-1' });
    const view = await ok(host, 'inviteToSpeak', { userId: 'student-3' });
    expect(view.speakers.map((s) => s.userId)).toEqual(['student-2', 'student-3']);
  });

  it('a student cannot call the teacher’s actions nor end another student’s speaking', async () => {
    const host = await startRoom();
    const one = await join(1);
    await join(2);
    await ok(host, 'inviteToSpeak', { userId: 'student-2' });
    expect(await request(one, 'inviteToSpeak', { userId: 'student-1' })).toMatchObject({
      error: { code: 'forbidden' },
    });
    expect(await request(one, 'endSpeaking', { userId: 'student-2' })).toMatchObject({
      error: { code: 'forbidden', message: '다른 수강생의 발언은 강사만 끝낼 수 있어요.' },
    });
    expect(
      media.server
        .room(7)
        ?.speaking.view(null)
        .speakers.map((s) => s.userId),
    ).toEqual(['student-2']);
  });

  describe('speaking ends, the stream closes and listeners are told', () => {
    async function speaking() {
      const host = await startRoom();
      const one = await join(1);
      const two = await join(2);
      await ok(host, 'inviteToSpeak', { userId: 'student-1' });
      const { producerId } = await speak(one, 0x51);
      const ear = new Listener(two);
      await ear.sync();
      await until(() => ear.packetsOf(producerId) > 5, 5_000, 'the speaker heard');
      const closedForTwo = collect<{ producerId: string }>(two, 'producerClosed');
      const closedForHost = collect<{ producerId: string }>(host, 'producerClosed');
      const viewsOfOne = collect<SpeakingView>(one, 'speakerChanged');
      const viewsOfHost = collect<SpeakingView>(host, 'speakerChanged');
      const ended = async () => {
        await until(
          () =>
            closedForTwo.some((p) => p.producerId === producerId) &&
            closedForHost.some((p) => p.producerId === producerId),
          3_000,
          'producerClosed',
        );
        await until(() => viewsOfHost.at(-1)?.speakers.length === 0, 3_000, 'speakerChanged');
        expect(media.server.room(7)?.speaking.streams()).toEqual([]);
        // Nothing more arrives from the closed stream.
        const before = ear.packetsOf(producerId);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(ear.packetsOf(producerId) - before).toBeLessThan(3);
      };
      return { host, one, two, producerId, viewsOfOne, ended };
    }

    it('by the teacher', async () => {
      const { host, one, viewsOfOne, ended } = await speaking();
      await ok(host, 'endSpeaking', { userId: 'student-1' });
      await ended();
      expect(viewsOfOne.at(-1)).toEqual({ speakers: [], self: 'none' });
      // Publishing again needs a new invitation.
      expect(await request(one, 'createProducerTransport')).toMatchObject({ error: { code: 'forbidden' } });
    });

    it('by the teacher, for everybody', async () => {
      const { host, ended } = await speaking();
      await ok(host, 'endSpeaking', {});
      await ended();
    });

    it('by the student', async () => {
      const { one, ended } = await speaking();
      expect(await ok(one, 'endSpeaking', {})).toEqual({ speakers: [], self: 'none' });
      await ended();
    });

    it('by the speaker leaving', async () => {
      const { one, ended } = await speaking();
      one.disconnect();
      await ended();
    });
  });

  it('a student invited then declining (endSpeaking) frees the seat; the teacher and the student are told', async () => {
    const host = await startRoom();
    const one = await join(1);
    const views = collect<SpeakingView>(one, 'speakerChanged');
    await ok(host, 'inviteToSpeak', { userId: 'student-1' });
    await until(() => views.at(-1)?.self === 'invited', 3_000, 'the invitation');
    expect(await ok(one, 'endSpeaking', {})).toEqual({ speakers: [], self: 'none' });
    expect(await request(one, 'acceptSpeak')).toMatchObject({ error: { code: 'forbidden' } });
  });

  it('a late joiner hears who speaks at once', async () => {
    const host = await startRoom();
    const one = await join(1);
    await ok(host, 'inviteToSpeak', { userId: 'student-1' });
    const { producerId } = await speak(one, 0x61);
    const late = await media.connectAs(studentClaims(3));
    const views = collect<SpeakingView>(late, 'speakerChanged');
    await ok(late, 'joinRoom');
    await until(() => views.length > 0, 3_000, 'speakerChanged after joining');
    expect(views[0]?.speakers).toEqual([
      { userId: 'student-1', nickname: '학생1', state: 'speaking', producerId },
    ]);
  });
});
