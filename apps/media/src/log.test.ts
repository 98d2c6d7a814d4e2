import { afterEach, describe, expect, it, vi } from 'vitest';
import { log } from './log.ts';
import { Peer } from './peer.ts';
import { Room } from './room/room.ts';

const RTC = { announcedIp: '127.0.0.1', listenIp: '127.0.0.1', portRange: null, iceServers: [] };
type Line = Record<string, unknown>;

/** The JSON lines the service writes to stdout while `work` runs, at `level`. */
function linesDuring(level: string, work: () => void): Line[] {
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  const previous = log.level;
  log.level = level;
  try {
    work();
  } finally {
    log.level = previous;
    spy.mockRestore();
  }
  return written
    .join('')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Line);
}

function lecture(): { room: Room; teacher: Peer; student: Peer } {
  const room = new Room(7, { sessionKey: 'session-7', teacherGraceMs: 1_000 });
  const info = { nickname: '파도', classId: 7 };
  const teacher = new Peer({ ...info, userId: '1', role: 'teacher' }, RTC, () => {});
  const student = new Peer({ ...info, userId: '2', role: 'student' }, RTC, () => {});
  room.startTeacher(teacher);
  room.addStudent(student);
  return { room, teacher, student };
}

describe('the media service log', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes one JSON line per event carrying the class, session and peer ids', () => {
    let peers: { teacher: Peer; student: Peer } | undefined;
    let transportId = '';
    const lines = linesDuring('info', () => {
      const { room, teacher, student } = lecture();
      peers = { teacher, student };
      transportId = student.createConsumerTransport().id;
      room.close('teacherLeft');
    });
    expect(lines.every((line) => line.name === 'media' && typeof line.time === 'number')).toBe(true);
    expect(lines.find((line) => line.msg === 'room opened')).toMatchObject({
      level: 30,
      classId: 7,
      sessionKey: 'session-7',
    });
    expect(lines.find((line) => line.msg === 'room closed')).toMatchObject({
      reason: 'teacherLeft',
      students: 1,
    });
    // A transport's own warnings carry its id; this line ties the id to its peer.
    expect(lines.find((line) => line.msg === 'receiving transport created')).toMatchObject({
      classId: 7,
      peerId: peers?.student.id,
      transportId,
    });
    const closed = lines.filter((line) => line.msg === 'peer closed');
    expect(closed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ classId: 7, peerId: peers?.teacher.id, userId: '1', role: 'teacher' }),
        expect.objectContaining({ classId: 7, peerId: peers?.student.id, userId: '2', role: 'student' }),
      ]),
    );
  });

  it('writes nothing below the configured level', () => {
    const lines = linesDuring('warn', () => lecture().room.close('teacherLeft'));
    expect(lines).toEqual([]);
  });
});
