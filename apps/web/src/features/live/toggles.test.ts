import { describe, expect, it } from 'vitest';
import { captureOutcome } from './toggles.ts';

const dom = (name: string) => new DOMException('capture', name);

describe('captureOutcome', () => {
  it.each([
    ['screen', dom('NotAllowedError'), 'cancelled'],
    ['screen', dom('AbortError'), 'cancelled'],
    ['screen', dom('NotSupportedError'), 'unsupported'],
    ['screen', dom('NotReadableError'), 'captureFailed'],
    ['screen', new TypeError('bad options'), 'captureFailed'],
    ['systemAudio', dom('NotAllowedError'), 'cancelled'],
    ['systemAudio', dom('NotSupportedError'), 'unsupported'],
    // Camera and microphone keep the spec's one text for every failure ('Failed to get user media').
    ['webcam', dom('NotAllowedError'), 'captureFailed'],
    ['webcam', dom('NotSupportedError'), 'captureFailed'],
    ['microphone', dom('NotFoundError'), 'captureFailed'],
  ] as const)('%s: %o → %s', (name, error, outcome) => {
    expect(captureOutcome(name, error)).toBe(outcome);
  });
});
