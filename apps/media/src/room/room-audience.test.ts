import { describe, expect, it } from 'vitest';
import type { Peer } from '../peer.ts';
import { RoomAudience } from './room-audience.ts';

/** A peer that keeps what it is told (the audience only reads its info and notifies it). */
function fakePeer(userId: string, nickname: string) {
  const told: { event: string; payload: unknown }[] = [];
  const peer = {
    info: { userId, nickname, role: 'student', classId: 7 },
    notify: (event: string, payload: unknown) => told.push({ event, payload }),
  } as unknown as Peer;
  return { peer, told };
}

describe('RoomAudience.participants', () => {
  it('lists the students here, then each edge student once, with the nickname the edge told', () => {
    const audience = new RoomAudience();
    const teacher = fakePeer('teacher', '선생');
    audience.teacher = teacher.peer;
    audience.students.set('s1', fakePeer('s1', '바다').peer);
    audience.students.set('s2', fakePeer('s2', '파도').peer);
    audience.relays.set(fakePeer('relay', '').peer, {
      count: 3,
      // s2 is moving from the edge to this node: listed once, as here.
      userIds: new Set(['e1', 's2', 'e2']),
      nicknames: new Map([
        ['e1', '등대'],
        ['s2', '파도'],
      ]),
    });
    // An older edge tells only its number: nobody to name.
    audience.relays.set(fakePeer('old-relay', '').peer, {
      count: 4,
      userIds: new Set(),
      nicknames: new Map(),
    });
    expect(audience.participants()).toEqual([
      { userId: 's1', nickname: '바다' },
      { userId: 's2', nickname: '파도' },
      { userId: 'e1', nickname: '등대' },
      { userId: 'e2', nickname: '' },
    ]);
    audience.broadcastViewerCount();
    expect(teacher.told).toEqual([
      { event: 'viewerCount', payload: { count: 9 } },
      { event: 'participants', payload: { students: audience.participants() } },
    ]);
  });

  it('tells no student who the others are', () => {
    const audience = new RoomAudience();
    const student = fakePeer('s1', '바다');
    audience.students.set('s1', student.peer);
    audience.broadcastViewerCount();
    expect(student.told.map((one) => one.event)).toEqual(['viewerCount']);
  });
});
