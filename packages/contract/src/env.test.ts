import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigError,
  iceServersEnv,
  isProduction,
  MIN_SECRET_LENGTH,
  optionalEnv,
  parseEnv,
  productionEnv,
  secretEnv,
} from './env.ts';

const Schema = z.object({ NAME: optionalEnv, SECRET: secretEnv, ICE_SERVERS: iceServersEnv });

describe('parseEnv', () => {
  it('reads blank variables as unset and trims the others', () => {
    expect(parseEnv(Schema, { NAME: '  sea  ', SECRET: ' ', ICE_SERVERS: '' })).toEqual({
      NAME: 'sea',
      SECRET: undefined,
      ICE_SERVERS: [],
    });
  });

  it('accepts a secret of the shared minimum length and ICE servers as JSON', () => {
    const secret = 's'.repeat(MIN_SECRET_LENGTH);
    const iceServers = [{ urls: 'turn:127.0.0.1:3478', username: 'u', credential: 'c' }];
    expect(parseEnv(Schema, { SECRET: secret, ICE_SERVERS: JSON.stringify(iceServers) })).toMatchObject({
      SECRET: secret,
      ICE_SERVERS: iceServers,
    });
  });

  it('lists every problem at once, one line per variable', () => {
    let caught: unknown;
    try {
      parseEnv(Schema, { SECRET: 'short', ICE_SERVERS: '{not json' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual([
      `SECRET: must be at least ${MIN_SECRET_LENGTH} characters`,
      'ICE_SERVERS: must be a JSON array of {urls, username?, credential?}',
    ]);
    expect((caught as ConfigError).message).toBe(
      `Invalid configuration:\n  - SECRET: must be at least ${MIN_SECRET_LENGTH} characters\n` +
        '  - ICE_SERVERS: must be a JSON array of {urls, username?, credential?}',
    );
  });
});

describe('NODE_ENV', () => {
  it('means production in any case and with spaces around it, and nothing else does', () => {
    for (const value of ['production', 'Production', 'PRODUCTION', ' production ', '\tProduction\n']) {
      expect(isProduction(value), JSON.stringify(value)).toBe(true);
      expect(productionEnv.parse(value), JSON.stringify(value)).toBe(true);
    }
    for (const value of [
      undefined,
      '',
      ' ',
      'development',
      'test',
      'prod',
      'production-like',
      'pro duction',
    ]) {
      expect(isProduction(value), JSON.stringify(value)).toBe(false);
      expect(productionEnv.parse(value), JSON.stringify(value)).toBe(false);
    }
  });
});
