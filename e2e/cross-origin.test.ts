/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals (and the bundles the page loaded).
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumAvailable, launchChromium } from '../harness/chromium.ts';
import type { JourneyBrowser } from '../harness/chromium.ts';
import { serveFrontEnd } from './harness/front-origin.ts';
import type { FrontOrigin } from './harness/front-origin.ts';
import { startServer } from '../harness/server-process.ts';
import type { RunningServer } from '../harness/server-process.ts';

const PROGRAMMING = 13;

type ChatArgs = { api: string; token: string; classId: number; transport: string; content: string };
type ChatResult = { received: string[]; transport: string };

/**
 * In the page: STOMP with the page's @stomp/stompjs, over a plain WebSocket (`transport: 'plain'`) or through
 * the page's sockjs-client held to one SockJS transport; subscribes with a receipt, sends `content` and waits
 * for it to come back.
 */
function chatInPage(page: Page, args: ChatArgs): Promise<ChatResult> {
  return page.evaluate(
    ({ api, token, classId, transport, content }) =>
      new Promise<ChatResult>((resolve, reject) => {
        type Frame = { body: string; headers: Record<string, string> };
        type StompClient = {
          activate(): void;
          deactivate(): Promise<void>;
          subscribe(destination: string, callback: (frame: Frame) => void, headers: object): void;
          publish(message: { destination: string; body: string }): void;
          watchForReceipt(id: string, callback: () => void): void;
          onConnect: () => void;
        };
        const globals = window as unknown as {
          StompJs: { Client: new (config: object) => StompClient };
          SockJS: new (url: string, reserved: null, options: object) => WebSocket & { transport?: string };
        };
        let sockJs: (WebSocket & { transport?: string }) | null = null;
        const received: string[] = [];
        const socket =
          transport === 'plain'
            ? { brokerURL: `${api.replace(/^http/, 'ws')}/ws` }
            : {
                webSocketFactory: () =>
                  (sockJs = new globals.SockJS(`${api}/ws`, null, { transports: [transport] })),
              };
        const timer = setTimeout(() => reject(new Error(`${transport}: no echo within 15 s`)), 15_000);
        const client = new globals.StompJs.Client({
          ...socket,
          connectHeaders: { Authorization: `Bearer ${token}` },
          reconnectDelay: 0,
          onStompError: (frame: Frame) => reject(new Error(frame.headers.message ?? 'ERROR')),
          onWebSocketClose: (event: CloseEvent) => reject(new Error(`${transport}: closed ${event.code}`)),
        });
        client.onConnect = () => {
          client.watchForReceipt('subscribed', () =>
            client.publish({ destination: '/app/hello', body: JSON.stringify({ roomId: classId, content }) }),
          );
          client.subscribe(
            `/topic/greetings/${classId}`,
            (frame) => {
              const message = JSON.parse(frame.body) as { content: string };
              received.push(message.content);
              if (message.content !== content) return;
              clearTimeout(timer);
              resolve({ received, transport: sockJs?.transport ?? 'plain' });
              void client.deactivate();
            },
            { receipt: 'subscribed' },
          );
        };
        client.activate();
      }),
    args,
  );
}

type PageRequest = { method?: string; headers?: Record<string, string>; body?: string };

/** In the page: whether a fetch of `url` (with `init`) reaches the page, or the browser refuses it. */
function fetchInPage(page: Page, url: string, init: PageRequest = {}): Promise<number | 'blocked'> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        return (await fetch(url, init)).status;
      } catch {
        return 'blocked' as const;
      }
    },
    { url, init },
  );
}

/**
 * Compatibility with existing clients (issue 18): a front end served from another origin listed in
 * CORS_ORIGINS logs in through the dev provider, signs up with the bearer token, opens a class with a banner,
 * shows the uploaded banner, makes the class live, finds it with the home page's quirky query, chats over a
 * plain WebSocket and through SockJS (websocket and xhr-streaming) and reads the history. A page of an origin
 * not in the list gets nothing: the browser blocks its fetches and the server refuses its sockets.
 */
describe.skipIf(!chromiumAvailable())('a front end on another origin', { timeout: 120_000 }, () => {
  let server: RunningServer;
  let browser: JourneyBrowser;
  let allowed: FrontOrigin;
  let refused: FrontOrigin;
  let page: Page;
  let api = '';
  let token = '';
  let classId = 0;

  beforeAll(async () => {
    [allowed, refused] = await Promise.all([serveFrontEnd(), serveFrontEnd()]);
    // No web app: this server is only the API of the front end on the other origin.
    server = await startServer(path.join(os.tmpdir(), 'sea-no-web-app'), {
      env: { CORS_ORIGINS: allowed.origin },
    });
    api = server.baseUrl;
    browser = await launchChromium();
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await Promise.all([allowed?.close(), refused?.close()]);
  });

  test('logs in through the dev provider and signs up with its bearer token', async () => {
    const callback = `${allowed.origin}/callback`;
    await page.goto(
      `${api}/api/auth/dev/authorize?${new URLSearchParams({ redirect_uri: callback, state: 's1', kakao_id: '7001' })}`,
    );
    expect(new URL(page.url()).origin).toBe(allowed.origin);
    const code = new URL(page.url()).searchParams.get('code');
    expect(code).toBeTruthy();
    const tokens = await page.evaluate(
      async ({ api, code }) => {
        const response = await fetch(`${api}/api/auth/kakao/callback?code=${encodeURIComponent(code)}`);
        return (await response.json()) as { accessToken: string };
      },
      { api, code: code ?? '' },
    );
    token = tokens.accessToken;
    expect(token).toBeTruthy();
    const signedUp = await page.evaluate(
      async ({ api, token }) => {
        const form = new FormData();
        const dto = { nickname: '먼바다', email: null };
        form.append('signupRequestDto', new Blob([JSON.stringify(dto)], { type: 'application/json' }));
        const response = await fetch(`${api}/api/auth/signup`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}` },
          body: form,
        });
        const me = await fetch(`${api}/api/users`, { headers: { Authorization: `Bearer ${token}` } });
        return { signup: response.status, me: ((await me.json()) as { data: { nickname: string } }).data };
      },
      { api, token },
    );
    expect(signedUp).toEqual({ signup: 200, me: expect.objectContaining({ nickname: '먼바다' }) });
  });

  test('opens a class with an uploaded banner, shows the banner, and finds it live with the quirky query', async () => {
    const result = await page.evaluate(
      async ({ api, token, categoryId }) => {
        const canvas = new OffscreenCanvas(640, 360);
        const context = canvas.getContext('2d');
        if (!context) throw new Error('no 2d context');
        context.fillStyle = '#1d6fd6';
        context.fillRect(0, 0, 640, 360);
        const banner = await canvas.convertToBlob({ type: 'image/png' });
        const dto = {
          categoryId,
          name: '다른 출처에서 연 강의',
          object: '바깥 프런트엔드에서도 똑같이',
          description: '다른 주소에서 API를 써요.',
          instructorInfo: null,
          prerequisite: null,
          announcement: null,
        };
        const form = new FormData();
        form.append('classroomCreateDto', new Blob([JSON.stringify(dto)], { type: 'application/json' }));
        form.append('imagefile', banner, 'banner.png');
        const auth = { Authorization: `Bearer ${token}` };
        const created = (await (
          await fetch(`${api}/api/classes`, { method: 'POST', headers: auth, body: form })
        ).json()) as { data: { id: number; banner_image_path: string } };
        const { id, banner_image_path: bannerPath } = created.data;
        // A plain <img> of the API's origin, as any front end shows pictures.
        const image = new Image();
        image.src = new URL(bannerPath, api).href;
        await image.decode();
        // JSON with the bearer header: a preflighted PATCH.
        const live = await fetch(`${api}/api/classes/${id}/isActive`, {
          method: 'PATCH',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ active: true }),
        });
        const quirky = (await (await fetch(`${api}/api/classes?target=live?page=0`)).json()) as {
          data: { id: number }[];
        };
        return {
          id,
          bannerPath,
          imageWidth: image.naturalWidth,
          live: live.status,
          listed: quirky.data.map((item) => item.id),
        };
      },
      { api, token, categoryId: PROGRAMMING },
    );
    classId = result.id;
    // Absolute, from PUBLIC_URL: a relative path would resolve against the front end's own origin.
    expect(result.bannerPath.startsWith(`${api}/uploads/banners/`)).toBe(true);
    expect(result.imageWidth).toBeGreaterThan(0);
    expect(result.live).toBe(200);
    expect(result.listed).toContain(classId);
  });

  test('chats over a plain WebSocket and through SockJS, and reads the history', async () => {
    const plain = await chatInPage(page, {
      api,
      token,
      classId,
      transport: 'plain',
      content: '웹소켓으로 보내요',
    });
    expect(plain).toEqual({ received: ['웹소켓으로 보내요'], transport: 'plain' });
    for (const transport of ['websocket', 'xhr-streaming']) {
      const content = `SockJS ${transport}로 보내요 😀`;
      const sent = await chatInPage(page, { api, token, classId, transport, content });
      expect(sent).toEqual({ received: [content], transport });
    }
    const history = await page.evaluate(
      async ({ api, token, classId }) => {
        const response = await fetch(`${api}/find/chat/list/${classId}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        return ((await response.json()) as { content: string }[]).map((message) => message.content);
      },
      { api, token, classId },
    );
    expect(history).toEqual([
      '웹소켓으로 보내요',
      'SockJS websocket로 보내요 😀',
      'SockJS xhr-streaming로 보내요 😀',
    ]);
  });

  test('a page of an origin not in the list can neither read the API nor open the chat', async () => {
    const other = await browser.newPage();
    await other.goto(`${refused.origin}/`);
    const auth = { Authorization: `Bearer ${token}` };
    expect(await fetchInPage(other, `${api}/api/categories`)).toBe('blocked');
    expect(await fetchInPage(other, `${api}/api/users`, { headers: auth })).toBe('blocked');
    expect(
      await fetchInPage(other, `${api}/api/classes/${classId}/isActive`, {
        method: 'PATCH',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ active: false }),
      }),
    ).toBe('blocked');
    // The PATCH never left the browser (its preflight was refused): the class is still live.
    const state = (await (await fetch(`${api}/api/classes/${classId}/isActive`)).json()) as {
      data: { active: boolean };
    };
    expect(state.data.active).toBe(true);
    for (const transport of ['plain', 'websocket', 'xhr-streaming']) {
      await expect(
        chatInPage(other, { api, token, classId, transport, content: '들어가면 안 돼요' }),
        transport,
      ).rejects.toThrow(/closed|timed out|no echo/);
    }
    // And the allowed page still can, after all that.
    expect(await fetchInPage(page, `${api}/api/categories`)).toBe(200);
    await other.close();
  });
});
