import { describe, expect, it } from 'vitest';
import { platformEnv } from './platform-env.ts';

const ROOT = '/repo';

describe('what npm start derives', () => {
  it('without settings: the documented defaults', () => {
    const { env, port, mediaPort, warnings } = platformEnv({}, ROOT);
    expect([port, mediaPort, warnings]).toEqual([5000, 5001, []]);
    expect(env).toMatchObject({
      DATA_DIR: '/repo/data',
      DEMO_DATA: 'true',
      PORT: '5000',
      PUBLIC_URL: 'http://localhost:5000',
      API_URL: 'http://localhost:5000',
      MEDIA_PORT: '5001',
      MEDIA_URL: 'http://localhost:5001',
    });
  });

  it('PORT=8080: the media service reports to 8080 and the web origin is on 8080', () => {
    const { env, warnings } = platformEnv({ PORT: '8080' }, ROOT);
    expect(warnings).toEqual([]);
    expect(env).toMatchObject({
      PORT: '8080',
      API_URL: 'http://localhost:8080',
      PUBLIC_URL: 'http://localhost:8080',
      MEDIA_URL: 'http://localhost:5001',
    });
  });

  it('PORT=5001 moves the media service out of its way', () => {
    expect(platformEnv({ PORT: '5001' }, ROOT).env).toMatchObject({
      MEDIA_PORT: '5002',
      MEDIA_URL: 'http://localhost:5002',
    });
  });

  it('MEDIA_PORT alone gives MEDIA_URL; MEDIA_URL alone gives MEDIA_PORT', () => {
    expect(platformEnv({ MEDIA_PORT: '7001' }, ROOT).env).toMatchObject({
      MEDIA_URL: 'http://localhost:7001',
    });
    expect(platformEnv({ MEDIA_URL: 'http://localhost:7002' }, ROOT).env).toMatchObject({
      MEDIA_PORT: '7002',
    });
  });

  it('a HOST the server listens on names the API server for the media service', () => {
    expect(platformEnv({ HOST: '0.0.0.0', PORT: '6000' }, ROOT).env.API_URL).toBe('http://127.0.0.1:6000');
    expect(platformEnv({ HOST: '10.1.2.3' }, ROOT).env.API_URL).toBe('http://10.1.2.3:5000');
    expect(platformEnv({ HOST: '::1' }, ROOT).env.API_URL).toBe('http://[::1]:5000');
  });

  it('keeps what is given, and says what contradicts', () => {
    const given = {
      PORT: '8080',
      API_URL: 'http://127.0.0.1:5000',
      MEDIA_URL: 'http://localhost:7000',
      MEDIA_PORT: '7001',
    };
    const { env, warnings } = platformEnv(given, ROOT);
    expect(env).toMatchObject(given);
    expect(warnings).toEqual([
      expect.stringContaining('API_URL=http://127.0.0.1:5000 names another port'),
      expect.stringContaining('MEDIA_URL=http://localhost:7000 names port 7000'),
    ]);
    expect(platformEnv({ PORT: '7000', MEDIA_PORT: '7000' }, ROOT).warnings).toEqual([
      expect.stringContaining('is the API server'),
    ]);
    // A proxy in front: other hosts are not second-guessed.
    expect(
      platformEnv({ MEDIA_URL: 'https://media.example.org', MEDIA_PORT: '5001' }, ROOT).warnings,
    ).toEqual([]);
  });
});
