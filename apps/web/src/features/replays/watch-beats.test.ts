import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WatchBeat } from '@sea/contract/sessions';
import { WatchBeats } from './watch-beats.ts';

/** A video element's part the beats read: position, paused, and its events. */
class FakeMedia extends EventTarget {
  currentTime = 0;
  paused = true;

  play() {
    this.paused = false;
    this.dispatchEvent(new Event('play'));
  }

  pause() {
    this.paused = true;
    this.dispatchEvent(new Event('pause'));
  }

  seek(seconds: number) {
    this.currentTime = seconds;
    this.dispatchEvent(new Event('seeked'));
  }
}

class FakeDocument extends EventTarget {
  visibilityState: DocumentVisibilityState = 'visible';

  hide() {
    this.visibilityState = 'hidden';
    this.dispatchEvent(new Event('visibilitychange'));
  }
}

let media: FakeMedia;
let page: { window: EventTarget; document: FakeDocument };
let sent: { beat: WatchBeat; keepalive: boolean }[];
let beats: WatchBeats;

function start(
  send = (beat: WatchBeat, keepalive: boolean): Promise<unknown> => {
    sent.push({ beat, keepalive });
    return Promise.resolve();
  },
) {
  beats = new WatchBeats({ media, page, send, intervalMs: 5_000 });
}

/** Plays for `seconds` of wall clock, the position moving with it. */
function playFor(seconds: number) {
  for (let second = 0; second < seconds; second += 1) {
    media.currentTime += 1;
    vi.advanceTimersByTime(1_000);
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  media = new FakeMedia();
  page = { window: new EventTarget(), document: new FakeDocument() };
  sent = [];
});

afterEach(() => {
  beats.close();
  vi.useRealTimers();
});

describe('WatchBeats', () => {
  it('beats on play and every 5 s while playing', async () => {
    start();
    media.play();
    playFor(12);
    await beats.settled();
    expect(sent.map(({ beat }) => beat)).toEqual([
      { position_s: 0, playing: true },
      { position_s: 5, playing: true, from_s: 0 },
      { position_s: 10, playing: true, from_s: 5 },
    ]);
    expect(sent.every(({ keepalive }) => !keepalive)).toBe(true);
  });

  it('stays quiet while paused and unmoved', async () => {
    start();
    vi.advanceTimersByTime(30_000);
    await beats.settled();
    expect(sent).toEqual([]);
  });

  it('on pause closes the watched stretch with a playing beat, then says it stopped', async () => {
    start();
    media.play();
    playFor(3);
    media.pause();
    vi.advanceTimersByTime(20_000);
    await beats.settled();
    expect(sent.map(({ beat }) => beat)).toEqual([
      { position_s: 0, playing: true },
      { position_s: 3, playing: true, from_s: 0 },
      { position_s: 3, playing: false },
    ]);
  });

  it('reports a seek with the new position, once for a burst of seeks', async () => {
    start();
    media.seek(40);
    media.seek(41);
    media.seek(42);
    await beats.settled();
    expect(sent.map(({ beat }) => beat)).toEqual([{ position_s: 40, playing: false }]);
    vi.advanceTimersByTime(5_000);
    await beats.settled();
    // The regular beat carries where the burst ended.
    expect(sent.at(-1)?.beat).toEqual({ position_s: 42, playing: false });
  });

  it('tells where a playing stretch began, across a seek while playing', async () => {
    start();
    media.play();
    playFor(5);
    playFor(1);
    media.seek(100);
    playFor(4);
    await beats.settled();
    // The seek's beat says the tab was at 5 (the server credits the second played before it from there).
    expect(sent.map(({ beat }) => beat)).toEqual([
      { position_s: 0, playing: true },
      { position_s: 5, playing: true, from_s: 0 },
      { position_s: 100, playing: true, from_s: 5 },
      { position_s: 104, playing: true, from_s: 100 },
    ]);
  });

  it('sends on page hide and close in requests that outlive the page, and closes once', async () => {
    start();
    media.play();
    playFor(2);
    page.document.hide();
    page.window.dispatchEvent(new Event('pagehide'));
    beats.close();
    beats.close();
    await beats.settled();
    expect(sent.slice(1)).toEqual([
      { beat: { position_s: 2, playing: true, from_s: 0 }, keepalive: true },
      { beat: { position_s: 2, playing: true, from_s: 2 }, keepalive: true },
      { beat: { position_s: 2, playing: false }, keepalive: true },
      { beat: { position_s: 2, playing: false }, keepalive: true },
    ]);
    const count = sent.length;
    media.play();
    vi.advanceTimersByTime(20_000);
    await beats.settled();
    expect(sent).toHaveLength(count);
  });

  it('sends beats one after another, in order, and goes on after a failed one', async () => {
    const order: string[] = [];
    let calls = 0;
    start(async (beat) => {
      calls += 1;
      const call = calls;
      order.push(`start ${call}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      order.push(`end ${call}`);
      if (call === 1) throw new Error('lost');
      return { watched_s: 0, position_s: beat.position_s };
    });
    media.play();
    media.pause();
    await vi.advanceTimersByTimeAsync(1_000);
    await beats.settled();
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });
});
