import { randomInt } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CHAT_ENDPOINT } from '@sea/contract/chat';
import { originAllowed } from '../plugins/cors.ts';
import { eventSourceData, readMessages } from './sockjs-frames.ts';
import type { SockJsReceiver, SockJsSession } from './sockjs-session.ts';
import type { SockJsSessions } from './sockjs-sessions.ts';

/** Longest server or session id in a SockJS path (sockjs-client uses 8 characters, Spring clients a UUID). */
const MAX_ID_LENGTH = 128;
const ID = /^[^/.]+$/;
/** A streaming response ends past this many bytes and the client opens the next one (the protocol's 128 KiB). */
const STREAM_LIMIT_BYTES = 128 * 1024;
/** Bytes before the first frame of xhr-streaming, so browsers start handing the response over at once. */
const STREAM_PRELUDE = `${'h'.repeat(2048)}\n`;
const NO_CACHE = 'no-store, no-cache, no-transform, must-revalidate, max-age=0';
const A_YEAR_S = 365 * 24 * 3600;
const TEXT = 'text/plain; charset=UTF-8';

type Params = { server: string; session: string };

/**
 * SockJS's HTTP side at `/ws` (the websocket transport is an upgrade, served by the WebSocket plugin): the
 * greeting, `/ws/info`, and the xhr-streaming, xhr-polling and eventsource transports with `xhr_send`. The
 * iframe, htmlfile and JSONP transports are not served: they exist for browsers without CORS, would answer
 * pages of any origin, and the iframe page loads the client from a CDN. Answers are SockJS's own (plain text,
 * no envelope). Pages of origins that may not use the server (see originAllowed) get 403; the listed ones
 * get CORS with credentials, because sockjs-client sends its requests `withCredentials` (no cookie is read).
 */
export function sockJsRoutes(
  sessions: SockJsSessions,
  options: { corsOrigins: readonly string[]; publicUrl: string; maxMessageBytes: number },
) {
  return async (app: FastifyInstance): Promise<void> => {
    // Bodies of xhr_send are read as text whatever their type (sockjs-client says text/plain, others
    // application/json or nothing), held to the WebSocket message limit.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: options.maxMessageBytes },
      (_r, body, done) => done(null, body),
    );
    const refuseOtherPages = (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
      if (originAllowed(request.headers.origin, request.headers.host, options)) return done();
      void reply.code(403).type(TEXT).send('이 주소의 페이지는 채팅에 연결할 수 없어요.\n');
    };
    // @fastify/cors (when CORS_ORIGINS is set) adds the CORS headers; these routes also allow credentials.
    const config = { cors: { credentials: true } };
    const route = { onRequest: refuseOtherPages, config, schema: { hide: true } };

    for (const path of [CHAT_ENDPOINT, `${CHAT_ENDPOINT}/`]) {
      app.get(path, route, async (_request, reply) => reply.type(TEXT).send('Welcome to SockJS!\n'));
    }
    app.get(`${CHAT_ENDPOINT}/info`, route, async (_request, reply) =>
      reply
        .header('cache-control', NO_CACHE)
        .type('application/json; charset=UTF-8')
        .send(
          JSON.stringify({ websocket: true, origins: ['*:*'], cookie_needed: false, entropy: entropy() }),
        ),
    );
    app.options(`${CHAT_ENDPOINT}/info`, route, async (_request, reply) => preflight(reply, 'OPTIONS, GET'));

    const transport = `${CHAT_ENDPOINT}/:server/:session`;
    const receiving = (
      make: (raw: ServerResponse) => SockJsReceiver,
      method: 'GET' | 'POST',
      contentType: string,
      prelude: string,
    ) => ({
      method,
      handler: (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
        const id = sessionId(request.params);
        if (id === null) return reply.callNotFound();
        const raw = openStream(reply, contentType, prelude);
        const receiver = make(raw);
        const session = sessions.take(id);
        raw.on('close', () => session.detached(receiver));
        session.attach(receiver);
      },
    });
    const transports = {
      xhr_streaming: receiving(
        (raw) => responseReceiver(raw, (frame) => `${frame}\n`, STREAM_LIMIT_BYTES),
        'POST',
        'application/javascript; charset=UTF-8',
        STREAM_PRELUDE,
      ),
      xhr: receiving(
        (raw) => responseReceiver(raw, (frame) => `${frame}\n`, 'one frame'),
        'POST',
        'application/javascript; charset=UTF-8',
        '',
      ),
      eventsource: receiving(
        (raw) =>
          responseReceiver(raw, (frame) => `data: ${eventSourceData(frame)}\r\n\r\n`, STREAM_LIMIT_BYTES),
        'GET',
        'text/event-stream; charset=UTF-8',
        '\r\n',
      ),
    };
    for (const [name, { method, handler }] of Object.entries(transports)) {
      app.route<{ Params: Params }>({ method, url: `${transport}/${name}`, ...route, handler });
      app.options(`${transport}/${name}`, route, async (_request, reply) =>
        preflight(reply, 'OPTIONS, POST'),
      );
    }

    app.post<{ Params: Params }>(`${transport}/xhr_send`, route, async (request, reply) => {
      const id = sessionId(request.params);
      const session: SockJsSession | undefined = id === null ? undefined : sessions.find(id);
      if (session === undefined) return reply.callNotFound();
      const messages = typeof request.body === 'string' ? readMessages(request.body, 'array only') : null;
      if (messages === null)
        return reply.code(400).type(TEXT).send('Payload expected: a JSON array of strings.\n');
      if (!session.receive(messages)) return reply.callNotFound();
      // Answered raw: a message is not a write of the API, so it must not clear the read cache (onSend).
      answerRaw(reply, 204, TEXT);
    });
    app.options(`${transport}/xhr_send`, route, async (_request, reply) => preflight(reply, 'OPTIONS, POST'));
  };
}

function sessionId(params: Params): string | null {
  const { server, session } = params;
  const valid = (id: string) => id.length <= MAX_ID_LENGTH && ID.test(id);
  return valid(server) && valid(session) ? session : null;
}

function entropy(): number {
  return randomInt(0, 2 ** 32 - 1);
}

/** The protocol's answer to OPTIONS; a browser's preflight from a listed origin is answered by @fastify/cors. */
function preflight(reply: FastifyReply, methods: string): FastifyReply {
  return reply
    .code(204)
    .header('access-control-allow-methods', methods)
    .header('cache-control', `public, max-age=${A_YEAR_S}`)
    .header('access-control-max-age', String(A_YEAR_S))
    .header('expires', new Date(Date.now() + A_YEAR_S * 1000).toUTCString())
    .send();
}

/**
 * Takes the response over from Fastify (it stays open for the session) with the headers hooks set so far:
 * security headers and CORS. Hijacked answers also skip onSend, so they never clear the read cache.
 */
function openStream(reply: FastifyReply, contentType: string, prelude: string): ServerResponse {
  const raw = answerRaw(reply, 200, contentType, 'open');
  raw.socket?.setNoDelay(true);
  if (prelude !== '') raw.write(prelude);
  return raw;
}

function answerRaw(reply: FastifyReply, status: number, contentType: string, open?: 'open'): ServerResponse {
  reply.hijack();
  const raw = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) raw.setHeader(name, value);
  }
  raw.writeHead(status, { 'content-type': contentType, 'cache-control': NO_CACHE });
  if (open === undefined) raw.end();
  return raw;
}

function responseReceiver(
  raw: ServerResponse,
  frameText: (frame: string) => string,
  limit: number | 'one frame',
): SockJsReceiver {
  let written = 0;
  let frames = 0;
  return {
    write(frame) {
      // The client may have gone already; the response's close event detaches it from the session.
      if (raw.writableEnded || raw.destroyed) return;
      const text = frameText(frame);
      written += Buffer.byteLength(text);
      frames += 1;
      raw.write(text);
    },
    get full() {
      return limit === 'one frame' ? frames > 0 : written >= limit;
    },
    bufferedBytes: () => raw.writableLength,
    end: () => {
      if (!raw.writableEnded && !raw.destroyed) raw.end();
    },
  };
}
