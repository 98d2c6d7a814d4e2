import { describe, expect, it } from 'vitest';
import type { SessionRecording } from '@sea/contract/sessions';
import { sessionStatus } from './session-status.ts';

function recording(overrides: Partial<SessionRecording>): SessionRecording {
  return {
    state: 'ready',
    progress: 100,
    title: null,
    hidden: false,
    hls_url: null,
    mp4_url: null,
    error: null,
    ...overrides,
  };
}

describe('sessionStatus', () => {
  it.each([
    [recording({ state: 'recording', progress: 0 }), '녹화 중', 'live'],
    [recording({ state: 'processing', progress: 42 }), '처리 중 42%', 'busy'],
    [recording({ state: 'ready' }), '다시보기', 'ready'],
    [recording({ state: 'none', progress: 0 }), '녹화 안 함', 'muted'],
    [recording({ state: 'failed', error: '녹화 파일을 찾을 수 없어요.' }), '처리 실패', 'failed'],
  ] as const)('labels %o as %s', (value, label, tone) => {
    expect(sessionStatus(value)).toMatchObject({ label, tone });
  });

  it('keeps the progress while processing only', () => {
    expect(sessionStatus(recording({ state: 'processing', progress: 7 })).progress).toBe(7);
    expect(sessionStatus(recording({ state: 'ready' })).progress).toBeNull();
  });

  it('carries the reason of a failure and of a recording that waits raw', () => {
    expect(sessionStatus(recording({ state: 'failed', error: '실패 이유' })).error).toBe('실패 이유');
    const waiting = sessionStatus(recording({ state: 'processing', progress: 0, error: 'ffmpeg가 없어요.' }));
    expect(waiting).toMatchObject({ label: '처리 중 0%', tone: 'failed', error: 'ffmpeg가 없어요.' });
    expect(sessionStatus(recording({ state: 'processing', error: '  ' })).error).toBeNull();
  });
});
