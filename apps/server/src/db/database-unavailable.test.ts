import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './database-unavailable.ts';

const withCode = (code: string) => Object.assign(new Error(code), { code });
const wrapped = (cause: unknown) => new Error('Failed query: select 1', { cause });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED'), true],
    ['a reset connection', withCode('ECONNRESET'), true],
    ["postgres.js's closed connection", withCode('CONNECTION_CLOSED'), true],
    ["postgres.js's ended client", withCode('CONNECTION_ENDED'), true],
    ["postgres.js's connect timeout", withCode('CONNECT_TIMEOUT'), true],
    ['an administrator terminating the backend', withCode('57P01'), true],
    ['PostgreSQL starting up', withCode('57P03'), true],
    ['a connection exception', withCode('08006'), true],
    ['too many connections', withCode('53300'), true],
    ['a closed PGlite', new Error('PGlite is closed'), true],
    ['the same, wrapped by Drizzle', wrapped(withCode('ECONNREFUSED')), true],
    ['a unique violation', wrapped(withCode('23505')), false],
    ['a syntax error', withCode('42601'), false],
    ['a number out of range', wrapped(withCode('22003')), false],
    ['a plain bug', new TypeError('x is undefined'), false],
    ['not an error', 'ECONNREFUSED', false],
  ])('%s → %s', (_name, error, unavailable) => {
    expect(isDatabaseUnavailable(error)).toBe(unavailable);
  });
});
