import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { beforeEach } from 'vitest';
import { MEDIA_CALLBACK_AUDIENCE } from '@sea/contract/live-ticket';
import type { MediaNodeReport, MediaRevocation, MediaRoom } from '@sea/contract/media-nodes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { classes, liveSessions } from '../src/db/schema.ts';
import type { EndedSession } from '../src/plugins/events.ts';
import { expectOk } from './expect-envelope.ts';
import { appWithTeacher } from './classes.ts';
import type { TestUser } from './helper.ts';

/** A bearer token of a media node (MEDIA_SECRET, the API server's audience). */
export async function mediaToken(app: FastifyInstance, secret = app.config.mediaSecret): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(MEDIA_CALLBACK_AUDIENCE)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(secret));
}

/**
 * A media node as the API server sees it: each `report` sends the node's whole state with the next `seq`;
 * `restart()` starts a new run (new boot, seq from 0).
 */
export class FakeNode {
  readonly id: string;
  url: string;
  boot = randomUUID();
  bootedAt = new Date();
  seq = 0;
  readonly #app: FastifyInstance;

  constructor(app: FastifyInstance, id = `node-${randomUUID().slice(0, 8)}`, url = 'http://127.0.0.1:9') {
    this.#app = app;
    this.id = id;
    this.url = url;
  }

  /** Sends a report; answers the HTTP response. */
  async send(body: Partial<MediaNodeReport> = {}, token?: string) {
    this.seq += 1;
    const payload: MediaNodeReport = {
      url: this.url,
      boot: this.boot,
      bootedAt: this.bootedAt.toISOString(),
      seq: this.seq,
      rooms: [],
      closed: [],
      edges: [],
      ...body,
    };
    return this.#app.inject({
      method: 'PUT',
      url: toPath(ROUTES.mediaNodeReport, { nodeId: this.id }),
      headers: { authorization: `Bearer ${token ?? (await mediaToken(this.#app))}` },
      payload,
    });
  }

  /** Sends a report and answers the revocation it got back. */
  async report(body: Partial<MediaNodeReport> = {}): Promise<MediaRevocation> {
    return expectOk<MediaRevocation>(await this.send(body));
  }

  restart(): void {
    this.boot = randomUUID();
    this.bootedAt = new Date(Date.now() + 1);
    this.seq = 0;
  }
}

/** A room of a class as a node lists it. */
export function room(classId: number, overrides: Partial<MediaRoom> = {}): MediaRoom {
  return {
    classId,
    sessionKey: randomUUID(),
    startedAt: new Date().toISOString(),
    recording: true,
    students: [],
    ...overrides,
  };
}

/** The sessions of a class, oldest first. */
export async function sessionsOf(app: FastifyInstance, classId: number) {
  return app.db.select().from(liveSessions).where(eq(liveSessions.classId, classId)).orderBy(liveSessions.id);
}

/** Whether the class is live, straight from the database. */
export async function isLiveNow(app: FastifyInstance, classId: number): Promise<boolean> {
  const [row] = await app.db.select({ live: classes.isActive }).from(classes).where(eq(classes.id, classId));
  return row?.live ?? false;
}

/**
 * The app of a media-node test file and a teacher (see appWithTeacher), with the sessions it announces ended
 * (`sessionEnded`) during the current test, in order.
 */
export async function reportingApp(): Promise<{
  app: FastifyInstance;
  teacher: TestUser;
  announced: EndedSession[];
}> {
  const { app, teacher } = await appWithTeacher();
  const announced: EndedSession[] = [];
  app.events.on('sessionEnded', (session) => void announced.push(session));
  beforeEach(() => void announced.splice(0));
  return { app, teacher, announced };
}
