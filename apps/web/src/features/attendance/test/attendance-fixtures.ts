import type { Attendance } from '@sea/contract/attendance';

/**
 * Three sessions of class 7: three students in the newest (출석, 지각, 결석), one in the next (local times 19:00
 * and 10:00), none in the oldest.
 */
export function attendanceRecord(): Attendance {
  const at = (day: number, hour: number, minute: number) =>
    new Date(2026, 10, day, hour, minute).toISOString();
  return {
    class_name: '파도 읽기',
    sessions: [
      { id: 2, started_at: at(24, 19, 0), ended_at: at(24, 20, 0), title: '파도 읽기 2강' },
      { id: 1, started_at: at(17, 10, 0), ended_at: at(17, 11, 0), title: null },
      { id: 0, started_at: at(10, 10, 0), ended_at: at(10, 10, 30), title: '아무도 오지 않은 날' },
    ],
    rows: [
      {
        session_id: 2,
        user_id: 'u-otter',
        nickname: '해달',
        status: 'present',
        joins: [
          { joined_at: at(24, 19, 2), left_at: at(24, 19, 30) },
          { joined_at: at(24, 19, 35), left_at: at(24, 20, 0) },
        ],
        live_watch_s: 3_180,
        replay_watch_s: 0,
        replay_percent: null,
      },
      {
        session_id: 2,
        user_id: 'u-seal',
        nickname: '물범',
        status: 'late',
        joins: [{ joined_at: at(24, 19, 15), left_at: null }],
        live_watch_s: 1_500,
        replay_watch_s: 45,
        replay_percent: null,
      },
      {
        session_id: 2,
        user_id: 'u-crab',
        nickname: '게',
        status: 'absent',
        joins: [],
        live_watch_s: 0,
        replay_watch_s: 1_200,
        replay_percent: null,
      },
      {
        session_id: 1,
        user_id: 'u-otter',
        nickname: '해달',
        status: 'present',
        joins: [{ joined_at: at(17, 10, 0), left_at: at(17, 11, 0) }],
        live_watch_s: 3_600,
        replay_watch_s: 600,
        replay_percent: null,
      },
    ],
  };
}
