import type { IncomingMessage, ServerResponse } from 'node:http';
import { jwtVerify } from 'jose';
import {
  MEDIA_NODE_AUDIENCE,
  MEDIA_REVOCATION_PATH,
  MediaRevocationSchema,
  type MediaRevocation,
} from '@sea/contract/media-nodes';

/** The largest revocation body taken (a withdrawal names one user; a report's answer a few). */
const MAX_BODY_BYTES = 1024 * 1024;

export type InternalRoutesOptions = {
  /** MEDIA_SECRET: the API server signs its calls with it for {@link MEDIA_NODE_AUDIENCE}. */
  secret: string;
  /** Ends what the API server says must end. */
  revoke: (revocation: MediaRevocation) => void;
};

/**
 * The node's plain HTTP routes beside the signalling: `GET /health`, and `POST /internal/revocations` from
 * the API server (a bearer signed with MEDIA_SECRET for the node audience; a {@link MediaRevocation}). Every
 * other path is a 404.
 */
export function internalRoutes(options: InternalRoutesOptions) {
  const key = new TextEncoder().encode(options.secret);
  const answer = (response: ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  return (request: IncomingMessage, response: ServerResponse): void => {
    if (request.method === 'GET' && request.url === '/health') {
      answer(response, 200, { data: 'ok' });
      return;
    }
    if (request.method !== 'POST' || request.url !== MEDIA_REVOCATION_PATH) {
      answer(response, 404, { error: 'not found' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        answer(response, 413, { error: 'too large' });
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > MAX_BODY_BYTES) return; // answered already
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
      jwtVerify(token, key, { algorithms: ['HS256'], audience: MEDIA_NODE_AUDIENCE }).then(
        () => {
          let revocation: MediaRevocation;
          try {
            revocation = MediaRevocationSchema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            answer(response, 400, { error: 'not a revocation' });
            return;
          }
          options.revoke(revocation);
          answer(response, 200, { data: 'ok' });
        },
        () => answer(response, 401, { error: 'unauthorized' }),
      );
    });
  };
}
