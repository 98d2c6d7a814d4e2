import { describe, expect, it } from 'vitest';
import { firstJoinedAt, lastLeftAt, rowsBySession, studentTotals } from './attendance-summary.ts';
import { attendanceRecord } from './test/attendance-fixtures.ts';

describe('attendance summary', () => {
  it('groups the rows by session, keeping sessions nobody came to', () => {
    const bySession = rowsBySession(attendanceRecord());
    expect([...bySession.keys()]).toEqual([2, 1, 0]);
    expect(bySession.get(2)?.map((row) => row.nickname)).toEqual(['해달', '물범', '게']);
    expect(bySession.get(0)).toEqual([]);
  });

  it("adds up each student's sessions joined live and watch times", () => {
    expect(studentTotals(attendanceRecord())).toEqual([
      { userId: 'u-crab', nickname: '게', sessionsJoined: 0, liveWatchS: 0, replayWatchS: 1_200 },
      { userId: 'u-seal', nickname: '물범', sessionsJoined: 1, liveWatchS: 1_500, replayWatchS: 45 },
      { userId: 'u-otter', nickname: '해달', sessionsJoined: 2, liveWatchS: 6_780, replayWatchS: 600 },
    ]);
  });

  it('finds the first join and the last leave, or that the student is still in', () => {
    const [otter, seal, crab] = attendanceRecord().rows;
    if (otter === undefined || seal === undefined || crab === undefined) throw new Error('fixture');
    expect(firstJoinedAt(otter)).toBe(otter.joins[0]?.joined_at);
    expect(lastLeftAt(otter)).toBe(otter.joins[1]?.left_at);
    expect(lastLeftAt(seal)).toBe('in');
    expect(firstJoinedAt(crab)).toBeNull();
    expect(lastLeftAt(crab)).toBeNull();
  });
});
