import { describe, expect, it } from 'vitest';
import { sessionTitle } from './session-title.ts';

describe('sessionTitle', () => {
  it("is the teacher's title, or the start in the app's one date style when there is none", () => {
    const startedAt = new Date(2026, 10, 25, 19, 5).toISOString();
    expect(sessionTitle('3주차 복습', startedAt)).toBe('3주차 복습');
    expect(sessionTitle(' ', startedAt)).toBe('2026년 11월 25일 (수) 19:05');
    expect(sessionTitle(null, startedAt)).toBe('2026년 11월 25일 (수) 19:05');
  });
});
