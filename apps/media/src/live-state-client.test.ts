import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { MEDIA_CALLBACK_AUDIENCE } from '@sea/contract/live-ticket';
import { HttpLiveStateClient } from './live-state-client.ts';

const SECRET = 's'.repeat(48);
type Call = { method?: string; url?: string; body: unknown; audience: unknown };

async function recorder(statuses: number[]) {
  const calls: Call[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      jwtVerify(token, new TextEncoder().encode(SECRET), { audience: MEDIA_CALLBACK_AUDIENCE }).then(
        ({ payload }) => {
          calls.push({ method: req.method, url: req.url, body: JSON.parse(body), audience: payload.aud });
          res.writeHead(statuses.shift() ?? 200).end();
        },
        () => res.writeHead(401).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { calls, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let closeServer: (() => void) | null = null;
afterEach(() => closeServer?.());

describe('HttpLiveStateClient', () => {
  it('PUTs { active } to the internal route with a signed token', async () => {
    const api = await recorder([]);
    closeServer = () => api.server.close();
    const client = new HttpLiveStateClient({ apiUrl: api.url, secret: SECRET });
    client.setLive(12, true);
    await client.settled();
    expect(api.calls).toEqual([
      {
        method: 'PUT',
        url: '/internal/classes/12/live',
        body: { active: true },
        audience: MEDIA_CALLBACK_AUDIENCE,
      },
    ]);
  });

  it('retries server errors with backoff until delivered', async () => {
    const api = await recorder([503, 500]);
    closeServer = () => api.server.close();
    const client = new HttpLiveStateClient({ apiUrl: api.url, secret: SECRET, backoffMs: [10] });
    client.setLive(3, false);
    await client.settled();
    expect(api.calls.map((c) => c.body)).toEqual([{ active: false }, { active: false }, { active: false }]);
  });

  it('a newer state supersedes one still being retried, so true never lands after false', async () => {
    const api = await recorder([503]);
    closeServer = () => api.server.close();
    const client = new HttpLiveStateClient({ apiUrl: api.url, secret: SECRET, backoffMs: [50] });
    client.setLive(3, true);
    client.setLive(3, false);
    await client.settled();
    // One request at a time per class, always the newest state: the refused first try is retried as false.
    expect(api.calls.map((c) => c.body)).toEqual([{ active: true }, { active: false }]);
  });

  it('gives up on an unreachable API server without throwing', async () => {
    const client = new HttpLiveStateClient({
      apiUrl: 'http://127.0.0.1:9',
      secret: SECRET,
      backoffMs: [1],
      maxAttempts: 2,
    });
    client.setLive(1, true);
    await expect(client.settled()).resolves.toBeUndefined();
  });
});
