import { describe, expect, it } from 'vitest';
import type { MediaState } from './live-client.ts';
import { roomStatus, type RoomStatus } from './room-status.ts';
import type { SignallingState } from './signalling-client.ts';
import { LIVE_TEXTS } from './texts.ts';

describe('roomStatus', () => {
  it.each<[SignallingState, MediaState, RoomStatus]>([
    ['connecting', 'connecting', 'connecting'],
    ['connected', 'connecting', 'connecting'],
    ['connected', 'connected', 'connected'],
    ['connected', 'failed', 'failed'],
    ['disconnected', 'connected', 'disconnected'],
    ['failed', 'connecting', 'failed'],
    // The media node restarts: whatever the signalling does meanwhile, the room says it comes back.
    ['connecting', 'restarting', 'restarting'],
    ['connected', 'restarting', 'restarting'],
    ['failed', 'restarting', 'failed'],
    ['disconnected', 'restarting', 'disconnected'],
  ])('signalling %s and media %s show %s', (signalling, media, status) => {
    expect(roomStatus(signalling, media)).toBe(status);
  });

  it('a restart reads 잠시 후 다시 연결할게요', () => {
    expect(LIVE_TEXTS.connection[roomStatus('connecting', 'restarting')]).toBe('잠시 후 다시 연결할게요');
  });
});
