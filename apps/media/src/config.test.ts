import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readMediaSecret } from './config.ts';

describe('loadConfig', () => {
  it('has loopback-friendly defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 5001,
      apiUrl: 'http://127.0.0.1:5000',
      publicUrl: 'http://localhost:5000',
      announcedIp: '127.0.0.1',
      listenIp: '127.0.0.1',
      portRange: [40000, 40999],
      iceServers: [],
      mediaSecret: null,
    });
    // A forwarding worker per core, none on a single core.
    const cores = os.availableParallelism();
    expect(config.workers).toBe(cores > 1 ? cores : 0);
    // 40 students per forwarding thread, the main thread counting as one when there are no workers.
    expect(config.capacity).toBe(40 * Math.max(1, config.workers));
  });

  it('parses every variable', () => {
    const config = loadConfig({
      MEDIA_PORT: '6001',
      MEDIA_ANNOUNCED_IP: '203.0.113.5',
      MEDIA_LISTEN_IP: '0.0.0.0',
      MEDIA_PORT_RANGE: '50000-50100',
      ICE_SERVERS: '[{"urls":"turn:turn.example.org:3478","username":"u","credential":"c"}]',
      MEDIA_SECRET: 'x'.repeat(32),
      MEDIA_WORKERS: '3',
      MEDIA_CAPACITY: '250',
      MEDIA_URL: 'https://media-2.example.org/',
      REDIS_URL: 'redis://10.0.0.2:6379',
    });
    expect(config.capacity).toBe(250);
    expect(config.mediaUrl).toBe('https://media-2.example.org');
    expect(config.redisUrl).toBe('redis://10.0.0.2:6379');
    expect(config.port).toBe(6001);
    expect(config.workers).toBe(3);
    expect(config.listenIp).toBe('0.0.0.0');
    expect(config.portRange).toEqual([50000, 50100]);
    expect(config.iceServers).toEqual([
      { urls: 'turn:turn.example.org:3478', username: 'u', credential: 'c' },
    ]);
  });

  it('lists every problem at once', () => {
    try {
      loadConfig({
        MEDIA_PORT: 'x',
        MEDIA_ANNOUNCED_IP: 'somewhere',
        MEDIA_PORT_RANGE: '5-2',
        ICE_SERVERS: '{',
        MEDIA_SECRET: 'short',
        MEDIA_WORKERS: '-1',
      });
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of [
        'MEDIA_PORT',
        'MEDIA_ANNOUNCED_IP',
        'MEDIA_PORT_RANGE',
        'ICE_SERVERS',
        'MEDIA_SECRET',
        'MEDIA_WORKERS',
      ]) {
        expect(problems).toContain(name);
      }
    }
  });
});

describe('readMediaSecret', () => {
  it('reads the secret the API server keeps in DATA_DIR, waiting for it briefly', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'media-secret-'));
    const config = loadConfig({ DATA_DIR: dir });
    setTimeout(() => void fs.writeFile(path.join(dir, 'media-secret'), 'k'.repeat(64)), 300);
    await expect(readMediaSecret(config, 5_000)).resolves.toBe('k'.repeat(64));
    await fs.rm(dir, { recursive: true });
  });

  it('fails clearly when the file never appears, and never creates one', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'media-secret-'));
    await expect(readMediaSecret(loadConfig({ DATA_DIR: dir }), 300)).rejects.toThrow(/media-secret/);
    expect(await fs.readdir(dir)).toEqual([]);
    await fs.rm(dir, { recursive: true });
  });
});
