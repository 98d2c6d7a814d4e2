// Issue 32 item 1: a speaking student's turn survives a media service that dies and comes back. The new
// service knows nothing of the old room's seats; the teacher's client, who granted the turn, names the
// speakers in its `startRoom` and the new room invites each again as they enter.
import { afterEach, describe, expect, it } from 'vitest';
import type { SpeakingView } from '@sea/contract/live';
import type { Socket } from 'socket.io-client';
import { acceptAndSpeak, type SyntheticSpeaker } from './synthetic-speaker.ts';
import { collect, ok, request, startTestMedia, until } from './test-media-server.ts';

type Media = Awaited<ReturnType<typeof startTestMedia>>;
const started: Media[] = [];
const speakers: SyntheticSpeaker[] = [];

const teacher = { role: 'teacher', sub: 'teacher-1', nickname: '파도선생' } as const;
const student = (n: number) => ({ role: 'student', sub: `student-${n}`, nickname: `학생${n}` }) as const;

async function media(): Promise<Media> {
  const node = await startTestMedia();
  started.push(node);
  return node;
}

/** A student entering, with the `speakerChanged` views they are told from the start. */
async function enter(node: Media, n: number): Promise<{ socket: Socket; views: SpeakingView[] }> {
  const socket = await node.connectAs(student(n));
  const views = collect<SpeakingView>(socket, 'speakerChanged');
  await ok(socket, 'joinRoom');
  return { socket, views };
}

afterEach(async () => {
  speakers.splice(0).forEach((speaker) => speaker.close());
  for (const node of started.splice(0)) await node.close();
});

describe('a speaking turn across a media service that died', () => {
  it('the teacher names the speaker again: invited on entering the new room, and speaks again', async () => {
    const first = await media();
    const host = await first.connectAs(teacher);
    await ok(host, 'startRoom');
    const { socket } = await enter(first, 1);
    await ok(host, 'inviteToSpeak', { userId: 'student-1' });
    speakers.push((await acceptAndSpeak(socket, 0x51)).speaker);
    await first.kill(); // its seats die with it

    const second = await media();
    const newHost = await second.connectAs(teacher);
    const toTeacher = collect<SpeakingView>(newHost, 'speakerChanged');
    await ok(newHost, 'startRoom', { speakers: ['student-1'] });
    // Another student is not given a turn; the speaker is invited the moment they are back.
    const other = await enter(second, 2);
    const back = await enter(second, 1);
    await until(() => back.views.at(-1)?.self === 'invited', 3_000, 'the speaker invited again');
    expect(other.views.at(-1)?.self).toBe('none');
    const again = await acceptAndSpeak(back.socket, 0x52);
    speakers.push(again.speaker);
    await until(() => toTeacher.at(-1)?.speakers[0]?.state === 'speaking', 3_000, 'speaking again');
    expect(toTeacher.at(-1)?.speakers).toEqual([
      { userId: 'student-1', nickname: '학생1', state: 'speaking', producerId: again.producerId },
    ]);
  });

  it('only the teacher names speakers, and a room already open keeps its own seats', async () => {
    const node = await media();
    const host = await node.connectAs(teacher);
    await ok(host, 'startRoom');
    const { views } = await enter(node, 1);
    // A student cannot give themself a turn through startRoom.
    const self = await node.connectAs(student(2));
    expect(await request(self, 'startRoom', { speakers: ['student-2'] })).toMatchObject({
      error: { code: 'forbidden' },
    });
    // The teacher's connection replaced (a reconnection): the open room ignores the names.
    const again = await node.connectAs(teacher);
    await ok(again, 'startRoom', { speakers: ['student-1'] });
    const late = await enter(node, 1);
    expect(views.at(-1)?.self ?? 'none').toBe('none');
    expect(late.views.at(-1)?.self).toBe('none');
  });
});
