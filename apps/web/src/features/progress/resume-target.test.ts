import { describe, expect, it } from 'vitest';
import { resumeTarget } from './resume-target.ts';
import { classProgress, sessionProgress } from './test/progress-fixtures.ts';

describe('resumeTarget', () => {
  it('goes on with the replay watched last', () => {
    expect(resumeTarget(classProgress())?.session_id).toBe(2);
  });

  it('moves to the next replay not completed when the last one watched is completed', () => {
    const progress = classProgress();
    progress.sessions = progress.sessions.map((session) =>
      session.session_id === 2 ? { ...session, completed: true, percent: 100 } : session,
    );
    expect(resumeTarget(progress)?.session_id).toBe(3);
  });

  it('starts with the first replay when nothing was watched, and is null without replays', () => {
    const fresh = {
      class_percent: 0,
      sessions: [sessionProgress({ session_id: 8 }), sessionProgress({ session_id: 9 })],
    };
    expect(resumeTarget(fresh)?.session_id).toBe(8);
    expect(resumeTarget({ class_percent: 0, sessions: [] })).toBeNull();
  });

  it('reopens the replay watched last when every replay is completed', () => {
    const progress = classProgress();
    progress.sessions = progress.sessions.map((session) => ({
      ...session,
      completed: true,
      last_watched_at: session.session_id === 3 ? '2026-11-19T10:00:00.000Z' : session.last_watched_at,
    }));
    expect(resumeTarget(progress)?.session_id).toBe(2);
  });
});
