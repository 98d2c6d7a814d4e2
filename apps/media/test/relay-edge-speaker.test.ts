// One class across two media nodes (relay-nodes.ts): a student on the edge invited to speak.
import { describe, expect, it } from 'vitest';
import type { ProducerInfo, SpeakingView } from '@sea/contract/live';
import type { Socket } from 'socket.io-client';
import { relayNodes } from './relay-nodes.ts';
import { negotiate, resumeAll } from './synthetic-class.ts';
import { acceptAndSpeak, expectUninvitedRefused } from './synthetic-speaker.ts';
import { SyntheticStudent } from './synthetic-student.ts';
import { collect, delay, ok, request, startTestMedia, until } from './test-media-server.ts';

const relay = relayNodes();

describe('one class across two nodes (relay)', () => {
  it('a student on the edge, invited by the teacher, is heard at the origin, on the edge once, on another edge', async () => {
    const { origin, edge, publish, watchOn, watchOnEdge, closers } = relay;
    const { socket: host } = await publish(origin);
    const near = await watchOn(origin, 1);
    const far = await watchOnEdge(2);
    // Another edge of the class (node C), which pulls the speaker from the origin like any other.
    const third = await startTestMedia({ nodeId: 'node-c', teacherGraceMs: 5_000 });
    closers.push(() => third.close());
    const other = await watchOn(third, 4, origin.url);
    const otherAdded = collect<ProducerInfo>(other.socket, 'newProducer');
    const otherClosed = collect<ProducerInfo>(other.socket, 'producerClosed');
    const edgeAdded = collect<ProducerInfo>(far.socket, 'newProducer');
    const edgeClosed = collect<ProducerInfo>(far.socket, 'producerClosed');
    const nearClosed = collect<ProducerInfo>(near.socket, 'producerClosed');
    const teacherViews = collect<SpeakingView>(host, 'speakerChanged');
    const socket = await edge.connectAs({
      role: 'student',
      sub: 'student-3',
      nickname: '학생3',
      origin: origin.url,
    });
    const ownViews = collect<SpeakingView>(socket, 'speakerChanged');
    await ok(socket, 'joinRoom');
    // Uninvited, the edge's student publishes nothing.
    const notSpeaking = { error: { code: 'forbidden', message: expect.stringContaining('수락한 뒤에만') } };
    await expectUninvitedRefused(socket, notSpeaking);

    // The teacher invites them once the edge has told the origin who its students are.
    let invited = null as SpeakingView | null;
    await until(
      async () => {
        const answer = await request(host, 'inviteToSpeak', { userId: 'student-3' });
        if ('data' in answer) invited = answer.data;
        return invited !== null;
      },
      3_000,
      "the edge's students known at the origin",
    );
    expect(invited).toEqual({
      speakers: [{ userId: 'student-3', nickname: '학생3', state: 'invited', producerId: null }],
      self: 'none',
    });
    await until(() => ownViews.at(-1)?.self === 'invited', 3_000, 'the invitation on the edge');
    expect(ownViews.at(-1)?.speakers).toEqual(invited?.speakers);

    // Only the relay the student is seated through may accept or publish for them.
    const rogue = await origin.connectAs({ role: 'student', sub: 'relay:rogue', relay: true });
    await ok(rogue, 'joinRoom');
    const refused = { error: { code: 'forbidden', message: '강사의 발언 요청을 받지 않았어요.' } };
    expect(await request(rogue, 'relayAcceptSpeak', { userId: 'student-3' })).toMatchObject(refused);
    expect(await request(rogue, 'relayAcceptSpeak', { userId: 'nobody' })).toMatchObject(refused);
    expect(await request(rogue, 'createProducerTransport')).toMatchObject(notSpeaking);
    expect(await request(near.socket, 'relayAcceptSpeak', { userId: 'student-3' })).toMatchObject({
      error: { code: 'forbidden', message: '미디어 노드만 할 수 있어요.' },
    });
    rogue.disconnect();

    // The student accepts and speaks on the edge; the edge sends the microphone up.
    const { speaker, producerId: edgeProducer } = await acceptAndSpeak(socket, 0x33);
    closers.push(() => speaker.close());
    await until(
      () => teacherViews.at(-1)?.speakers[0]?.producerId != null,
      8_000,
      'the microphone published at the origin',
    );
    const originProducer = teacherViews.at(-1)?.speakers[0]?.producerId ?? '';
    expect(teacherViews.at(-1)).toEqual({
      speakers: [{ userId: 'student-3', nickname: '학생3', state: 'speaking', producerId: originProducer }],
      self: 'none',
    });
    expect(originProducer).not.toBe(edgeProducer);
    // The edge tells its students the edge's own microphone, the speaker their own place.
    await until(() => ownViews.at(-1)?.speakers[0]?.producerId === edgeProducer, 3_000, 'own view');
    expect(ownViews.at(-1)?.self).toBe('speaking');

    /** Renegotiates `socket`'s receiving side and waits for `producerId`'s packets with the speaker's mark. */
    const hears = async (
      who: Socket,
      ear: SyntheticStudent,
      transportId: string,
      producerId: string,
    ): Promise<string> => {
      const consumers = await negotiate(who, ear, transportId);
      await resumeAll(who, consumers);
      const mid = consumers.find((c) => c.producerId === producerId)?.mid;
      if (mid === undefined) throw new Error(`no consumer of ${producerId}`);
      await until(() => ear.packets(mid).length > 10, 8_000, `the edge's speaker heard`);
      // Decrypted (werift hands over authenticated SRTP only), and that speaker's voice, nobody else's.
      expect(new Set(ear.packets(mid).map((p) => [p.speakerMark, p.bytes].join()))).toEqual(
        new Set(['51,60']),
      );
      return mid;
    };
    const teacherEar = new SyntheticStudent();
    closers.push(() => teacherEar.close());
    const { transportId: teacherTransport } = await ok(host, 'createConsumerTransport');
    await hears(host, teacherEar, teacherTransport, originProducer);
    await hears(near.socket, near.student, near.transportId, originProducer);
    await hears(far.socket, far.student, far.transportId, edgeProducer);
    await until(() => otherAdded.some((p) => p.producerKind === 'speakerAudio'), 8_000, 'on the other edge');
    const otherProducer = otherAdded.find((p) => p.producerKind === 'speakerAudio')?.producerId ?? '';
    await hears(other.socket, other.student, other.transportId, otherProducer);
    // The edge's students hear the edge's own microphone, not its copy back from the origin, also once the
    // edge has renegotiated its pull (the teacher stopping a stream).
    await ok(host, 'closeProducer', { producerKind: 'screenShareAudio' });
    await until(
      () => edgeClosed.some((p) => p.producerKind === 'screenShareAudio'),
      5_000,
      'the edge renegotiated',
    );
    await delay(300);
    expect(edgeAdded.filter((p) => p.producerKind === 'speakerAudio')).toEqual([
      { producerId: edgeProducer, producerKind: 'speakerAudio' },
    ]);
    expect((await ok(far.socket, 'getProducers')).producers.map((p) => p.producerId)).not.toContain(
      originProducer,
    );

    // The teacher ends it: closed at the origin and on the edge, and the student may publish no more.
    await ok(host, 'endSpeaking', { userId: 'student-3' });
    await until(() => nearClosed.some((p) => p.producerId === originProducer), 5_000, 'closed at the origin');
    await until(() => edgeClosed.some((p) => p.producerId === edgeProducer), 5_000, 'closed on the edge');
    await until(() => otherClosed.some((p) => p.producerId === otherProducer), 5_000, 'closed on the other');
    await until(() => ownViews.at(-1)?.self === 'none', 3_000, 'the end told to the speaker');
    expect(ownViews.at(-1)?.speakers).toEqual([]);
    expect(teacherViews.at(-1)?.speakers).toEqual([]);
    expect(await request(socket, 'createProducerTransport')).toMatchObject(notSpeaking);
  });
});
