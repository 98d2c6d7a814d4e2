import { describe, expect, it } from 'vitest';
import { reachedCount, seekSecondsFor, visibleMessages } from './chat-sync.ts';

const messages = [0, 1_500, 1_500, 9_000, 60_000].map((offset_ms, id) => ({ id, offset_ms }));

describe('chat sync', () => {
  it.each([
    [0, 1],
    [1_499, 1],
    [1_500, 3],
    [8_999, 3],
    [9_000, 4],
    [59_999, 4],
    [60_000, 5],
    [3_600_000, 5],
  ])('at %i ms the video has reached %i messages', (timeMs, count) => {
    expect(reachedCount(messages, timeMs)).toBe(count);
    expect(visibleMessages(messages, timeMs).map((message) => message.id)).toEqual(
      messages.slice(0, count).map((message) => message.id),
    );
  });

  it('shows nothing before the first message and nothing of an empty chat', () => {
    expect(reachedCount([{ offset_ms: 200 }], 199)).toBe(0);
    expect(reachedCount([], 10_000)).toBe(0);
  });

  it('agrees with a linear count for random chats and times', () => {
    for (let round = 0; round < 200; round += 1) {
      const offsets = Array.from({ length: Math.floor(Math.random() * 30) }, () =>
        Math.floor(Math.random() * 10_000),
      ).sort((a, b) => a - b);
      const chat = offsets.map((offset_ms) => ({ offset_ms }));
      const timeMs = Math.floor(Math.random() * 11_000) - 500;
      expect(reachedCount(chat, timeMs)).toBe(offsets.filter((offset) => offset <= timeMs).length);
    }
  });

  it('seeks to the moment of the clicked message, in seconds', () => {
    expect(seekSecondsFor({ offset_ms: 12_345 })).toBe(12.345);
    expect(seekSecondsFor({ offset_ms: 0 })).toBe(0);
  });
});
