// One class across two media nodes (relay-nodes.ts): the origin's speakers heard on the edge, seats freed.
import { describe, expect, it } from 'vitest';
import type { ProducerInfo, SpeakingView } from '@sea/contract/live';
import type { Socket } from 'socket.io-client';
import { relayNodes } from './relay-nodes.ts';
import { negotiate, resumeAll } from './synthetic-class.ts';
import { acceptAndSpeak } from './synthetic-speaker.ts';
import { collect, ok, request, until } from './test-media-server.ts';

const relay = relayNodes();

/** Student `n` joins the origin, is invited by the teacher (`host`), accepts and speaks with `mark`. */
async function speakAtOrigin(host: Socket, n: number, mark: number) {
  const socket = await relay.origin.connectAs({ role: 'student', sub: `student-${n}`, nickname: `학생${n}` });
  await ok(socket, 'joinRoom');
  await ok(host, 'inviteToSpeak', { userId: `student-${n}` });
  const { speaker, producerId } = await acceptAndSpeak(socket, mark);
  relay.closers.push(() => speaker.close());
  return { socket, producerId };
}

describe('one class across two nodes (relay)', () => {
  it('speakers at the origin are heard on the edge, each a stream of its own, and who speaks is told there', async () => {
    const { origin, edge, publish, watchOnEdge } = relay;
    const { socket: host } = await publish(origin);
    const { socket, student, transportId } = await watchOnEdge(1);
    const added = collect<ProducerInfo>(socket, 'newProducer');
    const closed = collect<ProducerInfo>(socket, 'producerClosed');
    const views = collect<SpeakingView>(socket, 'speakerChanged');
    const one = await speakAtOrigin(host, 2, 0x31);
    const two = await speakAtOrigin(host, 3, 0x32);
    const edgeSpeakers = () => added.filter((p) => p.producerKind === 'speakerAudio');
    await until(() => edgeSpeakers().length === 2, 8_000, 'both microphones published on the edge');
    await until(
      () => views.at(-1)?.speakers.filter((s) => s.producerId !== null).length === 2,
      3_000,
      "both speakers told on the edge with the edge's producers",
    );
    const [first, second] = edgeSpeakers().map((p) => p.producerId);
    // Who speaks, as at the origin, but naming the edge's own producers (those its students consume).
    const view = views.at(-1);
    expect(view).toEqual({
      speakers: [
        { userId: 'student-2', nickname: '학생2', state: 'speaking', producerId: first },
        { userId: 'student-3', nickname: '학생3', state: 'speaking', producerId: second },
      ],
      self: 'none',
    });
    expect([first, second]).not.toContain(one.producerId);
    expect([first, second]).not.toContain(two.producerId);

    // The edge's student renegotiates as on newProducer and hears each speaker on an m-line of its own.
    const consumers = await negotiate(socket, student, transportId);
    await resumeAll(socket, consumers);
    const midOf = (producerId: string | undefined) => {
      const consumer = consumers.find((c) => c.producerId === producerId);
      if (!consumer) throw new Error(`no consumer of ${producerId}`);
      return consumer.mid;
    };
    for (const [producerId, mark] of [
      [first, 0x31],
      [second, 0x32],
    ] as const) {
      const mid = midOf(producerId);
      await until(() => student.packets(mid).length > 10, 8_000, `speaker ${mark.toString(16)} on the edge`);
      // Decrypted (werift hands over authenticated SRTP only), and that speaker's voice, nobody else's.
      expect(new Set(student.packets(mid).map((p) => [p.speakerMark, p.bytes].join()))).toEqual(
        new Set([`${mark},60`]),
      );
    }

    // A late joiner on the edge hears who speaks at once.
    const late = await edge.connectAs({ role: 'student', sub: 'student-9', origin: origin.url });
    const lateViews = collect<SpeakingView>(late, 'speakerChanged');
    await ok(late, 'joinRoom');
    await until(() => lateViews.length > 0, 3_000, 'speakerChanged to a late joiner');
    expect(lateViews[0]).toEqual(view);
    // Both seats are taken: an edge's student cannot be invited now either (edge invitations: below).
    await until(
      async () =>
        JSON.stringify(await request(host, 'inviteToSpeak', { userId: 'student-1' })).includes('2명까지'),
      3_000,
      "the edge's students known at the origin",
    );
    expect(await request(host, 'inviteToSpeak', { userId: 'nobody' })).toMatchObject({
      error: { code: 'conflict', message: '그 수강생은 지금 이 강의실에 없어요.' },
    });

    // The teacher ends the first speaker: their stream closes on the edge too, the other goes on.
    await ok(host, 'endSpeaking', { userId: 'student-2' });
    await until(() => closed.some((p) => p.producerId === first), 5_000, 'producerClosed on the edge');
    expect(closed.map((p) => p.producerId)).not.toContain(second);
    await until(() => views.at(-1)?.speakers.length === 1, 3_000, 'one speaker left on the edge');
    expect(views.at(-1)?.speakers.map((s) => [s.userId, s.producerId])).toEqual([['student-3', second]]);
    const heard = student.packets(midOf(second)).length;
    await until(() => student.packets(midOf(second)).length > heard + 10, 3_000, 'the other speaker');
    // The second speaker leaving the class ends theirs the same way.
    two.socket.disconnect();
    await until(() => closed.some((p) => p.producerId === second), 5_000, 'producerClosed of the second');
    await until(() => views.at(-1)?.speakers.length === 0, 3_000, 'nobody speaks on the edge');
  });

  it("an edge's speaker ending, leaving the edge, or the edge ending frees the seat at the origin", async () => {
    const { origin, edge, publish, closers } = relay;
    const { socket: host } = await publish(origin);
    const teacherViews = collect<SpeakingView>(host, 'speakerChanged');
    const teacherClosed = collect<ProducerInfo>(host, 'producerClosed');
    const speakOnEdge = async (mark: number) => {
      const socket = await edge.connectAs({ role: 'student', sub: 'student-3', origin: origin.url });
      await ok(socket, 'joinRoom');
      await until(
        async () => 'data' in (await request(host, 'inviteToSpeak', { userId: 'student-3' })),
        3_000,
        "the edge's student known at the origin",
      );
      const { speaker } = await acceptAndSpeak(socket, mark);
      closers.push(() => speaker.close());
      await until(
        () => teacherViews.at(-1)?.speakers[0]?.producerId != null,
        8_000,
        'the microphone published at the origin',
      );
      return { socket, producerId: teacherViews.at(-1)?.speakers[0]?.producerId ?? '' };
    };
    const freed = async (producerId: string, what: string) => {
      await until(() => teacherClosed.some((p) => p.producerId === producerId), 5_000, `${what}: closed`);
      await until(() => teacherViews.at(-1)?.speakers.length === 0, 3_000, `${what}: seat freed`);
    };

    const first = await speakOnEdge(0x34);
    const views = collect<SpeakingView>(first.socket, 'speakerChanged');
    await ok(first.socket, 'endSpeaking');
    await freed(first.producerId, "the student's own end");
    await until(() => views.at(-1)?.self === 'none', 3_000, 'the end told on the edge');

    first.socket.disconnect();
    const second = await speakOnEdge(0x35);
    second.socket.disconnect();
    await freed(second.producerId, 'the student leaving the edge');

    const third = await speakOnEdge(0x36);
    await edge.kill();
    await freed(third.producerId, 'the edge ending');
  });
});
