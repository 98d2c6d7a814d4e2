import { afterEach, describe, expect, it, vi } from 'vitest';
import { SPEAKER_RETURN_MS, type SpeakingView } from '@sea/contract/live';
import { LOOPBACK_RTC } from '../../test/test-media-server.ts';
import { Peer } from '../peer.ts';
import { Room } from './room.ts';

/** A student's connection that keeps the `speakerChanged` views it is told. */
function student(userId: string) {
  const views: SpeakingView[] = [];
  const peer = new Peer(
    { userId, nickname: userId, role: 'student', classId: 7 },
    LOOPBACK_RTC,
    (event, payload) => {
      if (event === 'speakerChanged') views.push(payload as SpeakingView);
    },
  );
  return { peer, self: () => views.at(-1)?.self };
}

/** A room of class 7 with its teacher, a speaking student (invited and accepted) and another student. */
function roomWithSpeaker() {
  const room = new Room(7, { sessionKey: 'session-7', teacherGraceMs: 1_000 });
  const teacher = new Peer(
    { userId: 't', nickname: '강사', role: 'teacher', classId: 7 },
    LOOPBACK_RTC,
    () => {},
  );
  room.startTeacher(teacher);
  const speaker = student('student-1');
  room.addStudent(speaker.peer);
  room.addStudent(student('student-2').peer);
  room.inviteToSpeak('student-1');
  room.speaking.accept(speaker.peer);
  expect(speaker.self()).toBe('speaking');
  return { room, speaker };
}

afterEach(() => vi.useRealTimers());

describe("a speaking student's turn across a reconnection", () => {
  it('a lost connection, then the student back: invited again at once (not back in the hand queue)', () => {
    const { room, speaker } = roomWithSpeaker();
    speaker.peer.close('disconnected');
    expect(room.speakingView(null).speakers).toEqual([]);
    const back = student('student-1');
    room.addStudent(back.peer);
    expect(back.self()).toBe('invited');
    expect(room.speakingView(null).speakers.map((s) => [s.userId, s.state])).toEqual([
      ['student-1', 'invited'],
    ]);
    room.close('teacherLeft');
  });

  it('a reconnection that replaces the old connection before it timed out: invited again too', () => {
    const { room } = roomWithSpeaker();
    const back = student('student-1');
    room.addStudent(back.peer);
    expect(back.self()).toBe('invited');
    room.close('teacherLeft');
  });

  it('leaving gives the turn up, and so does coming back after the wait', () => {
    const { room, speaker } = roomWithSpeaker();
    speaker.peer.close('left');
    const back = student('student-1');
    room.addStudent(back.peer);
    expect(back.self()).toBe('none');
    room.close('teacherLeft');

    vi.useFakeTimers({ toFake: ['Date'] });
    const late = roomWithSpeaker();
    late.speaker.peer.close('disconnected');
    vi.setSystemTime(Date.now() + SPEAKER_RETURN_MS + 1);
    const after = student('student-1');
    late.room.addStudent(after.peer);
    expect(after.self()).toBe('none');
    late.room.close('teacherLeft');
  });

  it('every seat taken meanwhile: the returning student is not seated over them', () => {
    const { room, speaker } = roomWithSpeaker();
    speaker.peer.close('disconnected');
    room.addStudent(student('student-3').peer);
    room.inviteToSpeak('student-2');
    room.inviteToSpeak('student-3');
    const back = student('student-1');
    room.addStudent(back.peer);
    expect(back.self()).toBe('none');
    expect(room.speakingView(null).speakers.map((s) => s.userId)).toEqual(['student-2', 'student-3']);
    room.close('teacherLeft');
  });

  it('a new room keeps the places the teacher names (the media service died) for the same wait', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const room = new Room(7, { sessionKey: 'session-8', teacherGraceMs: 1_000 });
    room.startTeacher(
      new Peer({ userId: 't', nickname: '강사', role: 'teacher', classId: 7 }, LOOPBACK_RTC, () => {}),
    );
    room.keepSpeakerPlaces(['student-1', 'student-2']);
    const first = student('student-1');
    room.addStudent(first.peer);
    expect(first.self()).toBe('invited');
    vi.setSystemTime(Date.now() + SPEAKER_RETURN_MS + 1);
    const late = student('student-2');
    room.addStudent(late.peer);
    expect(late.self()).toBe('none');
    room.close('teacherLeft');
  });
});
