import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@sea/contract/paths';
import type { Readiness } from '@sea/contract/readiness';
import { buildTestApp } from '../../server/test/helper.ts';
import { apiReadiness } from '../src/api-readiness.ts';
import { internalRoutes } from '../src/internal-routes.ts';
import { MediaServer } from '../src/media-server.ts';
import { NodeReporter } from '../src/node-reporter.ts';
import { LOOPBACK_RTC } from './test-media-server.ts';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function readyOf(url: string): Promise<{ status: number; body: Readiness }> {
  const response = await fetch(`${url}${ROUTES.ready}`);
  return { status: response.status, body: (await response.json()) as Readiness };
}

async function listen(server: http.Server | FastifyInstance): Promise<string> {
  if (server instanceof http.Server) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  return server.listen({ host: '127.0.0.1', port: 0 });
}

describe('readiness across the two services', () => {
  it('each is ready while the other answers, and says which dependency is down once it stops', async () => {
    const api = await buildTestApp();
    let apiOpen = true;
    cleanups.push(() => apiOpen && api.close());
    const apiUrl = await listen(api);

    const media = new MediaServer({
      rtc: LOOPBACK_RTC,
      teacherGraceMs: 300,
      reports: { changed: async () => true },
    });
    cleanups.push(() => media.close());
    const node = http.createServer(
      internalRoutes({
        secret: api.config.mediaSecret,
        revoke: (revocation) => media.revoke(revocation),
        ready: apiReadiness(apiUrl),
      }),
    );
    const nodeUrl = await listen(node);
    let nodeOpen = true;
    cleanups.push(() => nodeOpen && new Promise((resolve) => node.close(resolve)));

    // Before the node has reported, the API server has no media to send classes to.
    expect((await readyOf(apiUrl)).body.checks.media).toBe('down');
    const reporter = new NodeReporter({
      apiUrl,
      secret: api.config.mediaSecret,
      nodeId: 'ready-test-node',
      url: nodeUrl,
      rooms: () => media.roomReports(),
      revoke: (revocation) => media.revoke(revocation),
      warn: () => undefined,
      info: () => undefined,
    });
    cleanups.push(() => reporter.close());
    expect(await reporter.flush(5_000)).toBe(true);

    expect(await readyOf(apiUrl)).toEqual({
      status: 200,
      // The API server also tells its folders' free space (never a reason to be unready).
      body: { ready: true, checks: { database: 'up', redis: 'off', media: 'up' }, space: expect.any(Object) },
    });
    expect(await readyOf(nodeUrl)).toEqual({ status: 200, body: { ready: true, checks: { api: 'up' } } });

    // The node stops answering: it still counts as reported (fresh), but it is not reachable.
    node.closeAllConnections();
    await new Promise((resolve) => node.close(resolve));
    nodeOpen = false;
    expect(await readyOf(apiUrl)).toEqual({
      status: 503,
      body: {
        ready: false,
        checks: { database: 'up', redis: 'off', media: 'down' },
        space: expect.any(Object),
      },
    });

    // The API server stops: a node (a new one on the same routes) says the API is down.
    const again = http.createServer(
      internalRoutes({
        secret: api.config.mediaSecret,
        revoke: () => undefined,
        ready: apiReadiness(apiUrl),
      }),
    );
    const againUrl = await listen(again);
    cleanups.push(() => new Promise((resolve) => again.close(resolve)));
    reporter.close();
    await api.close();
    apiOpen = false;
    expect(await readyOf(againUrl)).toEqual({ status: 503, body: { ready: false, checks: { api: 'down' } } });
    // Liveness is another question: the node itself is alive.
    expect((await fetch(`${againUrl}${ROUTES.health}`)).status).toBe(200);
  });
});
