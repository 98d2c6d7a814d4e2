import { describe, expect, it } from 'vitest';
import { stompFrame } from './stomp-frame.ts';
import { readConnect } from './stomp-connect.ts';

const connect = (headers: Record<string, string>) =>
  readConnect(stompFrame('CONNECT', { Authorization: 'Bearer abc', ...headers }), 10_000);

describe('readConnect', () => {
  it.each([
    // accept-version, heart-beat, → version, server sends every, server expects every
    ['1.0,1.1,1.2', '10000,10000', '1.2', 10_000, 10_000],
    ['1.1', '0,0', '1.1', 0, 0],
    ['1.2', '5000,20000', '1.2', 20_000, 10_000],
    ['1.2', '30000,0', '1.2', 0, 30_000],
    ['1.2,2.0', '1,1', '1.2', 10_000, 10_000],
  ])('accept-version %s with heart-beat %s', (accept, heartBeat, version, sendEveryMs, expectEveryMs) => {
    expect(connect({ 'accept-version': accept, 'heart-beat': heartBeat })).toEqual({
      version,
      token: 'abc',
      sendEveryMs,
      expectEveryMs,
    });
  });

  it('treats a CONNECT without accept-version as 1.0, without heart-beats', () => {
    expect(connect({ 'heart-beat': '1000,1000' })).toMatchObject({
      version: '1.0',
      sendEveryMs: 0,
      expectEveryMs: 0,
    });
  });

  it.each([
    [{ 'accept-version': '2.0' }, 'unsupported protocol version'],
    [{ 'accept-version': '1.2', 'heart-beat': '10,x' }, 'invalid heart-beat header'],
    [{ 'accept-version': '1.2', 'heart-beat': '-1,0' }, 'invalid heart-beat header'],
  ])('refuses %o', (headers, error) => {
    expect(connect(headers)).toEqual({ error });
  });

  it.each<Record<string, string>>([{}, { Authorization: 'Basic abc' }, { Authorization: 'Bearer' }])(
    'needs a bearer token: %o',
    (headers) => {
      const frame = stompFrame('CONNECT', { 'accept-version': '1.2', ...headers });
      expect(readConnect(frame, 10_000)).toEqual({ error: 'missing bearer token' });
    },
  );

  it('accepts the header name in any case', () => {
    const frame = stompFrame('CONNECT', { 'accept-version': '1.2', authorization: 'bearer xyz' });
    expect(readConnect(frame, 10_000)).toMatchObject({ token: 'xyz' });
  });
});
