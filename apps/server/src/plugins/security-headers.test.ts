import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';
import { contentSecurityPolicy, KAKAO_SDK_ORIGIN, securityHeaders } from './security-headers.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ mediaUrl: 'https://media.example.org:8443' });
});
afterAll(() => app.close());

describe('security headers', () => {
  it('sends helmet’s headers and a CSP that allows the media service', async () => {
    const response = await app.inject('/health');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['strict-transport-security']).toBeDefined();
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self' https://media.example.org:8443 wss://media.example.org:8443");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("script-src 'self';");
  });

  it('allows the other media nodes of MEDIA_ORIGINS too, wildcards kept (a ticket may name any node)', () => {
    const csp = contentSecurityPolicy('https://a.media.example.org', false, [
      'https://*.media.example.org',
      'https://10.0.0.2:*',
    ]);
    expect(csp).toContain(
      "connect-src 'self' https://a.media.example.org wss://a.media.example.org https://*.media.example.org wss://*.media.example.org https://10.0.0.2:* wss://10.0.0.2:*;",
    );
  });

  it('lets the web app load Kakao’s SDK only when Kakao login is configured', () => {
    expect(contentSecurityPolicy('http://localhost:5001', true)).toContain(
      `script-src 'self' ${KAKAO_SDK_ORIGIN};`,
    );
    expect(contentSecurityPolicy('http://localhost:5001', false)).not.toContain(KAKAO_SDK_ORIGIN);
  });

  it('are computed once from helmet, and also sent with not-found and error answers', async () => {
    const headers = securityHeaders("default-src 'self'");
    expect(headers).toMatchObject({
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'content-security-policy': "default-src 'self'",
    });
    expect(headers['cross-origin-embedder-policy']).toBeUndefined();
    for (const response of [
      await app.inject('/api/no-such-route'),
      await app.inject({ method: 'POST', url: '/api/classes' }),
    ]) {
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      for (const [name, value] of Object.entries(headers).filter(([n]) => n !== 'content-security-policy')) {
        expect(response.headers[name]).toBe(value);
      }
    }
  });
});
