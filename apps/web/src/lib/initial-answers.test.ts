import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INITIAL_ANSWERS_ID } from '@sea/contract/initial-answers';
import { envelope, mockFetch } from '../testing/fetch-mock.ts';
import { http } from './http.ts';
import { INITIAL_ANSWER_MAX_AGE_MS, resetInitialAnswers } from './initial-answers.ts';

const LIVE_KEY = '/api/classes?page=0&target=live';

/** Puts the element the server writes into a catalogue page's HTML. */
function embed(content: string): void {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = INITIAL_ANSWERS_ID;
  element.textContent = content;
  document.body.append(element);
}

beforeEach(() => {
  resetInitialAnswers();
  // The page loaded a second ago: the test process itself may be older than an embedded answer may be.
  vi.spyOn(performance, 'now').mockReturnValue(1_000);
});

afterEach(() => {
  document.getElementById(INITIAL_ANSWERS_ID)?.remove();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('answers embedded in the page', () => {
  it('stand in for the first request of the same list, once; then the server answers', async () => {
    embed(JSON.stringify({ answers: { [LIVE_KEY]: envelope([{ id: 7 }]) } }));
    const { calls } = mockFetch([
      { url: /^\/api\/classes\?/, respond: () => ({ body: envelope([{ id: 8 }]) }) },
    ]);
    // The same request whatever order its query is built in.
    await expect(http('/api/classes', { query: { target: 'live', page: 0 } })).resolves.toEqual([{ id: 7 }]);
    expect(calls).toHaveLength(0);
    await expect(http('/api/classes', { query: { target: 'live', page: 0 } })).resolves.toEqual([{ id: 8 }]);
    expect(calls).toHaveLength(1);
  });

  it('never answer another request, a request with its own token, or a write', async () => {
    embed(JSON.stringify({ answers: { [LIVE_KEY]: envelope([{ id: 7 }]) } }));
    const { calls } = mockFetch([
      { url: /^\/api\/classes/, respond: () => ({ body: envelope('fresh') }) },
      { method: 'POST', url: /^\/api\/classes/, respond: () => ({ body: envelope('posted') }) },
    ]);
    await expect(http('/api/classes', { query: { page: 1, target: 'live' } })).resolves.toBe('fresh');
    await expect(
      http('/api/classes', { query: { page: 0, target: 'live' }, token: 'someone' }),
    ).resolves.toBe('fresh');
    await expect(http('/api/classes', { method: 'POST', json: {} })).resolves.toBe('posted');
    expect(calls).toHaveLength(3);
  });

  it('are not used once the page is older than a fetched answer stays fresh', async () => {
    embed(JSON.stringify({ answers: { [LIVE_KEY]: envelope([{ id: 7 }]) } }));
    vi.spyOn(performance, 'now').mockReturnValue(INITIAL_ANSWER_MAX_AGE_MS + 1);
    mockFetch([{ url: /^\/api\/classes/, respond: () => ({ body: envelope([{ id: 8 }]) }) }]);
    await expect(http('/api/classes', { query: { page: 0, target: 'live' } })).resolves.toEqual([{ id: 8 }]);
  });

  it('are ignored when unreadable', async () => {
    embed('{not json');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch([{ url: /^\/api\/classes/, respond: () => ({ body: envelope([{ id: 8 }]) }) }]);
    await expect(http('/api/classes', { query: { page: 0, target: 'live' } })).resolves.toEqual([{ id: 8 }]);
  });
});
