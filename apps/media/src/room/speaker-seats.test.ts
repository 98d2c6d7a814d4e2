import { describe, expect, it } from 'vitest';
import { LOOPBACK_RTC } from '../../test/test-media-server.ts';
import { Peer } from '../peer.ts';
import { Producer } from '../rtc/producer.ts';
import { SpeakerSeats } from './speaker-seats.ts';

/** Seats whose hooks record what the room would announce. */
function newSeats() {
  const told: string[] = [];
  const seats = new SpeakerSeats({
    changed: () => told.push('changed'),
    streamAdded: (producer, owner) => told.push(`added ${producer.kind} by ${owner.info.userId}`),
    streamClosed: (producer, owner) => told.push(`closed ${producer.kind} by ${owner.info.userId}`),
  });
  return { seats, told };
}

const peer = (userId: string, nickname = userId) =>
  new Peer({ userId, nickname, role: 'student', classId: 7 }, LOOPBACK_RTC, () => undefined);
const microphone = () => new Producer('speakerAudio', [], () => undefined);

describe('speaker seats held through an edge relay', () => {
  it('a relay seat speaks, publishes and shows with the nickname the edge told', () => {
    const { seats, told } = newSeats();
    const relay = peer('relay:node-b');
    seats.inviteThrough(relay, 'student-3', '학생3');
    seats.inviteThrough(relay, 'student-3', '학생3'); // idempotent
    expect(seats.view(null).speakers).toEqual([
      { userId: 'student-3', nickname: '학생3', state: 'invited', producerId: null },
    ]);
    expect(seats.speaksThrough(relay)).toBe(false);
    seats.accept(relay, 'student-3');
    expect(seats.speaksThrough(relay)).toBe(true);
    const producer = microphone();
    seats.producedThrough(relay, 'student-3', producer);
    expect(seats.producerOf('student-3')).toBe(producer);
    expect(told).toContain('added speakerAudio by relay:node-b');
    // The relay's own edge does not get its students' voices back; everybody else does.
    expect(seats.streams(relay)).toEqual([]);
    expect(seats.streams(peer('student-1'))).toEqual([producer]);
  });

  it.each([
    ['another relay', (s: SpeakerSeats, _relay: Peer) => s.accept(peer('relay:rogue'), 'student-3')],
    ['a user the relay holds no seat for', (s: SpeakerSeats, relay: Peer) => s.accept(relay, 'student-9')],
    ['the student as if local', (s: SpeakerSeats) => s.accept(peer('student-3'))],
  ])('accepting for %s is refused', (_who, act) => {
    const { seats } = newSeats();
    const relay = peer('relay:node-b');
    seats.inviteThrough(relay, 'student-3', '학생3');
    expect(() => act(seats, relay)).toThrow('강사의 발언 요청을 받지 않았어요.');
    expect(seats.view(null).speakers[0]?.state).toBe('invited');
  });

  it('a relay cannot publish for an invited student who has not accepted, nor anything but a microphone', () => {
    const { seats } = newSeats();
    const relay = peer('relay:node-b');
    seats.inviteThrough(relay, 'student-3', '학생3');
    expect(() => seats.checkProduce(relay, 'speakerAudio', 'student-3')).toThrow('수락한 뒤에만');
    const early = microphone();
    seats.producedThrough(relay, 'student-3', early);
    expect(early.isClosedNow).toBe(true);
    seats.accept(relay, 'student-3');
    expect(() => seats.checkProduce(relay, 'webcamVideo', 'student-3')).toThrow('마이크 소리만');
    expect(() => seats.checkProduce(relay, 'speakerAudio', 'student-9')).toThrow('수락한 뒤에만');
  });

  it("ending a relay seat closes that speaker's stream only, and the relay leaving or unlisting ends its seats", () => {
    const { seats, told } = newSeats();
    const relay = peer('relay:node-b');
    const local = peer('student-1');
    seats.invite(local);
    seats.inviteThrough(relay, 'student-3', '학생3');
    seats.accept(relay, 'student-3');
    const producer = microphone();
    seats.producedThrough(relay, 'student-3', producer);
    const transport = relay.createProducerTransport();
    try {
      seats.endThrough(relay, new Set(['student-3'])); // still listed: kept
      expect(seats.holds(relay, 'student-3')).toBe(true);
      seats.endThrough(relay, new Set()); // no longer listed
      expect(producer.isClosedNow).toBe(true);
      expect(told).toContain('closed speakerAudio by relay:node-b');
      // The relay's publishing connection carries its edge's other speakers: it stays.
      expect(transport.isClosedNow).toBe(false);
      expect(seats.view(null).speakers.map((s) => s.userId)).toEqual(['student-1']);
    } finally {
      relay.close('left');
      local.close('left');
    }
  });

  it('seats changing are signalled after the hooks, for the edge following its own', () => {
    const { seats } = newSeats();
    let changes = 0;
    seats.changed.subscribe(() => (changes += 1));
    const local = peer('student-1');
    seats.invite(local);
    seats.accept(local);
    seats.end('student-1');
    expect(changes).toBe(3);
  });
});
