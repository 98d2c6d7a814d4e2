import { describe, expect, it } from 'vitest';
import { KeyframeRequester } from './keyframe-requester.ts';

describe('KeyframeRequester', () => {
  it('coalesces requests inside the interval into one PLI', () => {
    let sent = 0;
    const pli = new KeyframeRequester(() => (sent += 1), 300);
    pli.request(0);
    pli.request(10);
    pli.request(299);
    expect(sent).toBe(1);
    pli.request(300);
    expect(sent).toBe(2);
  });

  it('repeats while someone waits, and stops once a keyframe arrived', () => {
    let sent = 0;
    const pli = new KeyframeRequester(() => (sent += 1), 300);
    pli.request(0);
    expect(pli.tick(100)).toBe(false);
    expect(pli.tick(300)).toBe(true);
    pli.keyframeArrived();
    expect(pli.isWaiting).toBe(false);
    expect(pli.tick(1000)).toBe(false);
    expect(sent).toBe(2);
  });
});
