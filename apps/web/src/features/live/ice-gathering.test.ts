import { describe, expect, it, vi } from 'vitest';
import { iceGathered } from './ice-gathering.ts';

/** A peer connection fake: its gathering state, its transceivers, and the state-change event. */
function fakeConnection(state: RTCIceGatheringState, transceivers: number) {
  const listeners = new Set<() => void>();
  const pc = {
    iceGatheringState: state,
    getTransceivers: () => Array.from({ length: transceivers }, () => ({})),
    addEventListener: (_: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
    complete() {
      pc.iceGatheringState = 'complete';
      listeners.forEach((listener) => listener());
    },
    listenerCount: () => listeners.size,
  };
  return pc;
}

describe('iceGathered', () => {
  it('resolves when gathering completes, and stops listening', async () => {
    const pc = fakeConnection('gathering', 2);
    let done = false;
    const gathered = iceGathered(pc as unknown as RTCPeerConnection).then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    pc.complete();
    await gathered;
    expect(pc.listenerCount()).toBe(0);
  });

  it('resolves at once for a connection without media sections (nothing to gather)', async () => {
    vi.useFakeTimers();
    try {
      let done = false;
      void iceGathered(fakeConnection('new', 0) as unknown as RTCPeerConnection).then(() => (done = true));
      await Promise.resolve();
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives up waiting after the timeout and sends what it has', async () => {
    vi.useFakeTimers();
    try {
      let done = false;
      void iceGathered(fakeConnection('gathering', 1) as unknown as RTCPeerConnection, 3_000).then(
        () => (done = true),
      );
      await vi.advanceTimersByTimeAsync(2_999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
