import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { MEDIA_CALLBACK_AUDIENCE } from '@sea/contract/live-ticket';
import type { MediaNodeReport } from '@sea/contract/media-nodes';
import { ROUTES, toPath } from '@sea/contract/paths';

/**
 * A media node as the API server knows one: its reports keep one room (the live session of the class) open,
 * so questions and polls have a session to belong to. The media service itself is not needed here.
 */
export class FakeMediaNode {
  readonly #id = `e2e-node-${randomUUID().slice(0, 8)}`;
  readonly #boot = randomUUID();
  readonly #bootedAt = new Date().toISOString();
  readonly #room: MediaNodeReport['rooms'][number];
  readonly #baseUrl: string;
  readonly #secret: string;
  #seq = 0;

  constructor(baseUrl: string, classId: number, secret: string) {
    this.#baseUrl = baseUrl;
    this.#secret = secret;
    this.#room = {
      classId,
      sessionKey: randomUUID(),
      startedAt: new Date().toISOString(),
      recording: false,
      students: [],
    };
  }

  async report(): Promise<void> {
    this.#seq += 1;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(MEDIA_CALLBACK_AUDIENCE)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(this.#secret));
    const body: MediaNodeReport = {
      url: 'http://127.0.0.1:9',
      boot: this.#boot,
      bootedAt: this.#bootedAt,
      seq: this.#seq,
      rooms: [this.#room],
      closed: [],
      edges: [],
    };
    const response = await fetch(`${this.#baseUrl}${toPath(ROUTES.mediaNodeReport, { nodeId: this.#id })}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`node report answered ${response.status}: ${await response.text()}`);
  }
}
