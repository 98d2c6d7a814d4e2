import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { NO_WRITE_LIMITS } from './write-limits.ts';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'sea-config-'));

describe('loadConfig', () => {
  describe('STORAGE', () => {
    const s3 = {
      STORAGE: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:8080/',
      S3_REGION: 'kr-standard',
      S3_BUCKET: 'sea-academy',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    };

    it('reads an object store, path-style unless told otherwise', () => {
      expect(loadConfig({ DATA_DIR: tempDir(), ...s3 }).storage).toEqual({
        kind: 's3',
        endpoint: 'http://127.0.0.1:8080',
        region: 'kr-standard',
        bucket: 'sea-academy',
        accessKeyId: 'id',
        secretAccessKey: 'secret',
        forcePathStyle: true,
      });
      const virtual = loadConfig({ DATA_DIR: tempDir(), ...s3, S3_FORCE_PATH_STYLE: 'false' });
      expect(virtual.storage).toMatchObject({ forcePathStyle: false });
    });

    it('lists every S3 setting STORAGE=s3 lacks, and refuses a bad driver, endpoint or bucket', () => {
      let caught: unknown;
      try {
        loadConfig({ DATA_DIR: tempDir(), STORAGE: 's3', S3_REGION: 'x' });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as ConfigError).problems).toEqual(
        ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].map(
          (name) => `${name}: required when STORAGE=s3 (the object store that keeps every file)`,
        ),
      );
      expect(() => loadConfig({ DATA_DIR: tempDir(), STORAGE: 'gcs' })).toThrow(
        /STORAGE: must be local or s3/,
      );
      expect(() => loadConfig({ DATA_DIR: tempDir(), ...s3, S3_ENDPOINT: 'nope' })).toThrow(/S3_ENDPOINT/);
      expect(() => loadConfig({ DATA_DIR: tempDir(), ...s3, S3_BUCKET: 'Bad_Bucket' })).toThrow(
        /S3_BUCKET: must be a bucket name/,
      );
    });
  });

  it('applies the documented defaults and keeps generated secrets in DATA_DIR', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.port).toBe(5000);
    expect(config.database).toEqual({ kind: 'pglite', dir: path.join(dataDir, 'pglite') });
    expect(config.uploadDir).toBe(path.join(dataDir, 'uploads'));
    expect(config.recordingsDir).toBe(path.join(dataDir, 'recordings'));
    expect(config.replaysDir).toBe(path.join(dataDir, 'replays'));
    expect(config.storage).toEqual({ kind: 'local' });
    expect(config.ffmpegPath).toBeNull();
    expect(config.jobConcurrency).toBe(1);
    expect(config.mediaUrl).toBe('http://localhost:5001');
    expect(config.iceServers).toEqual([]);
    expect(config.demoData).toBe(false);
    expect(config.trustProxy).toBe(false);
    expect(config.corsOrigins).toEqual([]);
    expect(config.kakao.restApiKey).toBeNull();
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(fs.readFileSync(path.join(dataDir, 'media-secret'), 'utf8')).toBe(config.mediaSecret);
    // A second start (or the media service) reads the same secrets.
    const again = loadConfig({ DATA_DIR: dataDir });
    expect(again.jwtSecret).toBe(config.jwtSecret);
    expect(again.mediaSecret).toBe(config.mediaSecret);
  });

  it('reads explicit values', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      PORT: '6000',
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
      DEMO_DATA: 'true',
      JWT_SECRET: 'x'.repeat(32),
      ICE_SERVERS: '[{"urls":"turn:127.0.0.1:3478","username":"u","credential":"c"}]',
    });
    expect(config.port).toBe(6000);
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@127.0.0.1:5432/db' });
    expect(config.demoData).toBe(true);
    expect(config.jwtSecret).toBe('x'.repeat(32));
    expect(config.iceServers).toHaveLength(1);
  });

  it('reads the replay settings, and refuses a JOB_CONCURRENCY that is not a small count', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      RECORDINGS_DIR: '/srv/recordings',
      REPLAYS_DIR: '/srv/replays',
      FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg',
      JOB_CONCURRENCY: '0',
    });
    expect(config).toMatchObject({
      recordingsDir: '/srv/recordings',
      replaysDir: '/srv/replays',
      ffmpegPath: '/opt/ffmpeg/bin/ffmpeg',
      jobConcurrency: 0,
    });
    for (const value of ['-1', 'two', '1.5', '99']) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), JOB_CONCURRENCY: value })).toThrow(/JOB_CONCURRENCY/);
    }
  });

  it('reads the replay watchdog’s bounds in seconds, a floor above the ceiling taken as the ceiling', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).jobs).toBeUndefined();
    const both = loadConfig({ DATA_DIR: tempDir(), REPLAY_STALL_MIN_S: '120', REPLAY_STALL_MAX_S: '60' });
    expect(both.jobs).toEqual({ stallMinMs: 60_000, stallMaxMs: 60_000 });
    expect(loadConfig({ DATA_DIR: tempDir(), REPLAY_STALL_MIN_S: '30' }).jobs).toEqual({
      stallMinMs: 30_000,
    });
    for (const value of ['1', 'soon', '2.5']) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), REPLAY_STALL_MAX_S: value })).toThrow(
        /REPLAY_STALL_MAX_S/,
      );
    }
  });

  it.each([
    ['', false],
    ['false', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.0/8, 192.168.1.7,fd00::/8', ['10.0.0.0/8', '192.168.1.7', 'fd00::/8']],
    ['loopback', ['loopback']],
  ])('reads TRUST_PROXY=%j', (value, expected) => {
    expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(['maybe', '10.0.0.0/33', '10.0.0.1/8/2', 'proxy.example.org', '1.2.3.4,', '-1'])(
    'refuses TRUST_PROXY=%j',
    (value) => {
      expect(() => loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    },
  );

  it.each([
    ['', []],
    ['https://app.example.com', ['https://app.example.com']],
    [
      ' HTTPS://App.Example.com:443 , http://127.0.0.1:8080,capacitor://localhost,https://app.example.com',
      ['https://app.example.com', 'http://127.0.0.1:8080', 'capacitor://localhost'],
    ],
    ['http://[::1]:3000', ['http://[::1]:3000']],
  ])('reads CORS_ORIGINS=%j', (value, expected) => {
    expect(loadConfig({ DATA_DIR: tempDir(), CORS_ORIGINS: value }).corsOrigins).toEqual(expected);
  });

  it.each([
    '*',
    'app.example.com',
    'https://app.example.com/',
    'https://app.example.com/path',
    'https://user@app.example.com',
    'https://app.example.com?x',
    'https://a.example.com,,https://b.example.com',
  ])('refuses CORS_ORIGINS=%j', (value) => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), CORS_ORIGINS: value })).toThrow(/CORS_ORIGINS/);
  });

  it.each([
    ['', []],
    [
      'https://*.media.example.org, HTTPS://b.media.example.org:8443,https://10.0.0.2:*',
      ['https://*.media.example.org', 'https://b.media.example.org:8443', 'https://10.0.0.2:*'],
    ],
  ])('reads MEDIA_ORIGINS=%j', (value, expected) => {
    expect(loadConfig({ DATA_DIR: tempDir(), MEDIA_ORIGINS: value }).mediaOrigins).toEqual(expected);
  });

  it.each([
    '*',
    'media.example.org',
    'https://media.example.org/',
    'https://*',
    'wss://a.example.org',
    'https://a,,https://b',
  ])('refuses MEDIA_ORIGINS=%j', (value) => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), MEDIA_ORIGINS: value })).toThrow(/MEDIA_ORIGINS/);
  });

  it('keeps the write limits unless WRITE_LIMITS=off lifts them', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).writeLimits).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tempDir(), WRITE_LIMITS: 'on' }).writeLimits).toBeUndefined();
    expect(loadConfig({ DATA_DIR: tempDir(), WRITE_LIMITS: 'off' }).writeLimits).toEqual(NO_WRITE_LIMITS);
    expect(() => loadConfig({ DATA_DIR: tempDir(), WRITE_LIMITS: 'none' })).toThrow(/WRITE_LIMITS/);
  });

  it('lists every problem at once', () => {
    let caught: unknown;
    try {
      loadConfig({
        DATA_DIR: tempDir(),
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        JWT_SECRET: 'short',
        ICE_SERVERS: 'not json',
        DEMO_DATA: 'maybe',
        MEDIA_URL: 'nope',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'JWT_SECRET', 'ICE_SERVERS', 'DEMO_DATA', 'MEDIA_URL']) {
      expect(problems).toContain(name);
    }
  });

  describe('in production (NODE_ENV=production)', () => {
    it('refuses to start without a Kakao key: the dev login would let anyone be anyone', () => {
      expect(() => loadConfig({ DATA_DIR: tempDir(), NODE_ENV: 'production' })).toThrow(
        /KAKAO_REST_API_KEY: required when NODE_ENV=production.*DEV_LOGIN=true/,
      );
      expect(() =>
        loadConfig({
          DATA_DIR: tempDir(),
          NODE_ENV: 'production',
          DEV_LOGIN: 'false',
          KAKAO_REST_API_KEY: ' ',
        }),
      ).toThrow(ConfigError);
    });

    it('starts with a Kakao key, or with the dev login asked for on purpose', () => {
      const kakao = loadConfig({
        DATA_DIR: tempDir(),
        NODE_ENV: 'production',
        KAKAO_REST_API_KEY: 'rest-key',
      });
      expect([kakao.production, kakao.kakao.restApiKey]).toEqual([true, 'rest-key']);
      const dev = loadConfig({ DATA_DIR: tempDir(), NODE_ENV: 'production', DEV_LOGIN: 'true' });
      expect([dev.production, dev.kakao.restApiKey]).toEqual([true, null]);
    });

    it('takes NODE_ENV in any case and with spaces: Production is production too', () => {
      for (const NODE_ENV of ['Production', ' PRODUCTION ', 'production\n']) {
        expect(() => loadConfig({ DATA_DIR: tempDir(), NODE_ENV })).toThrow(/KAKAO_REST_API_KEY: required/);
        const dev = loadConfig({ DATA_DIR: tempDir(), NODE_ENV, DEV_LOGIN: 'true' });
        expect(dev.production, NODE_ENV).toBe(true);
      }
    });

    it('is not production otherwise, where the dev login stays the default', () => {
      for (const NODE_ENV of [undefined, 'development', 'test']) {
        expect(loadConfig({ DATA_DIR: tempDir(), NODE_ENV }).production).toBe(false);
      }
      expect(() => loadConfig({ DATA_DIR: tempDir(), DEV_LOGIN: 'maybe' })).toThrow(/DEV_LOGIN/);
    });
  });
});
