import type { FastifyBaseLogger } from 'fastify';
import { and, eq, gte, isNull } from 'drizzle-orm';
import { SignJWT } from 'jose';
import {
  MEDIA_NODE_AUDIENCE,
  MEDIA_NODE_TIMEOUT_MS,
  MEDIA_REVOCATION_PATH,
  type MediaRevocation,
} from '@sea/contract/media-nodes';
import type { Database } from '../db/database.ts';
import { classes, liveSessions, mediaNodes } from '../db/schema.ts';
import type { EndedSession, Events } from '../plugins/events.ts';
import { handOverNode } from '../sessions/session-parts.ts';
import { connectionRefused } from './connection-refused.ts';
import { markNotLiveWhileWaiting, resetOrphanLive, sweepHandedOver, sweepSilentNodes } from './node-sweep.ts';

/** How long the API server waits for a media node to take a revocation (the report's answer is the backstop). */
const CALL_TIMEOUT_MS = 2_000;
/**
 * How long {@link MediaNodes.gone} waits to connect to a node: a live node accepts within milliseconds, a
 * refusal (nothing listens) comes at once, and a silence says nothing either way.
 */
const GONE_CHECK_TIMEOUT_MS = 500;
/** How often {@link MediaNodes.watch} looks for nodes whose process is gone (a TCP connect to each). */
export const NODE_WATCH_MS = 1_000;
const TOKEN_TTL_S = 60;

export type MediaNodesOptions = {
  db: Database;
  /** MEDIA_SECRET: signs the calls to the nodes. */
  secret: string;
  log: FastifyBaseLogger;
  /** Where the sessions the sweeps end are announced (`sessionEnded`). */
  events: Pick<Events, 'emit'>;
  fetch?: typeof fetch;
};

/**
 * The API server's side of the media nodes. It tells the nodes at once when memberships end, as the chat is
 * told (register-media-nodes.ts subscribes it to app.events), so a student's media ends within a second of
 * losing the class; a call that fails is only logged, as every node's next report (within
 * MEDIA_NODE_REPORT_INTERVAL_MS) is answered with whatever it still has to end. It also ends the sessions of
 * silent nodes ({@link sweep}) and resets the live state at start ({@link reconcileAtStart}).
 */
export class MediaNodes {
  readonly #db: Database;
  readonly #key: Uint8Array;
  readonly #log: FastifyBaseLogger;
  readonly #events: Pick<Events, 'emit'>;
  readonly #fetch: typeof fetch;
  #watching = false;

  constructor(options: MediaNodesOptions) {
    this.#db = options.db;
    this.#key = new TextEncoder().encode(options.secret);
    this.#log = options.log;
    this.#events = options.events;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /**
   * Ends the sessions of nodes silent past the timeout (as of `now`), and those handed over that long ago that
   * nobody continued, and announces them.
   */
  async sweep(now = new Date()): Promise<EndedSession[]> {
    const ended = [...(await sweepSilentNodes(this.#db, now)), ...(await sweepHandedOver(this.#db, now))];
    if (ended.length > 0)
      this.#log.warn({ sessions: ended.length }, 'sessions of silent or stopped media nodes ended');
    for (const session of ended) await this.#events.emit('sessionEnded', session);
    return ended;
  }

  /**
   * At start: {@link sweep}, then every class live without an open session on a node heard from lately stops
   * being live (a stop or crash during a lecture leaves nothing live). Answers the classes reset.
   */
  async reconcileAtStart(now = new Date()): Promise<number[]> {
    await this.sweep(now);
    const reset = await resetOrphanLive(this.#db, now);
    if (reset.length > 0) this.#log.info({ classes: reset }, 'classes nobody broadcasts set not live');
    return reset;
  }

  /** Whether any node was heard from within the timeout. */
  async anyFresh(): Promise<boolean> {
    return (await this.#freshNodes()).length > 0;
  }

  /**
   * Whether a media node that reported within the timeout answers its `/health` now (the readiness check).
   * Never rejects.
   */
  async reachable(): Promise<boolean> {
    try {
      const nodes = await this.#freshNodes();
      const answers = await Promise.all(
        nodes.map((node) =>
          this.#fetch(`${node.url}/health`, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) }).then(
            (response) => response.ok,
            () => false,
          ),
        ),
      );
      return answers.includes(true);
    } catch {
      return false; // the database is down: the readiness check says so on its own line
    }
  }

  /** A class was deleted: its rooms close. Never rejects. */
  async classDeleted(classId: number): Promise<void> {
    await this.#send(await this.#running(classId), { classIds: [classId], sessionKeys: [], students: [] });
  }

  /**
   * A user withdrew: they leave every room they are a student in, and the rooms of the classes they taught
   * (deleted with the withdrawal) close. Never rejects.
   */
  async userWithdrawn(userId: string): Promise<void> {
    try {
      const taught = await this.#db
        .selectDistinct({ classId: liveSessions.classId })
        .from(liveSessions)
        .innerJoin(classes, eq(classes.id, liveSessions.classId))
        .where(and(eq(classes.teacherId, userId), isNull(liveSessions.endedAt)));
      await this.#send(await this.#freshNodes(), {
        classIds: taught.map((row) => row.classId),
        sessionKeys: [],
        students: [{ userId }],
      });
    } catch (error) {
      this.#failed(error);
    }
  }

  /**
   * A student's enrolment ended: they leave the class's rooms, on the nodes that run a session of it. Never
   * rejects.
   */
  async enrolmentEnded(classId: number, userId: string): Promise<void> {
    await this.#send(await this.#running(classId), {
      classIds: [],
      sessionKeys: [],
      students: [{ classId, userId }],
    });
  }

  /**
   * Checks that a node which reports answers at the URL it gave, and remembers it for this run of the node
   * (`boot`), which {@link gone} needs; warns when it does not answer (a wrong MEDIA_INTERNAL_URL).
   */
  async probe(nodeId: string, url: string, boot: string): Promise<void> {
    try {
      const response = await this.#fetch(`${url}/health`, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`status ${response.status}`);
    } catch (error) {
      this.#log.warn(
        { nodeId, url, err: error },
        `media node ${nodeId} reports, but the API server cannot reach it at ${url}: students who lose a ` +
          'class leave its rooms only at its next report; set MEDIA_INTERNAL_URL on the media service to an ' +
          'address this server reaches',
      );
      return;
    }
    this.#log.info({ nodeId, url }, 'media node reporting and reachable');
    await this.#db
      .update(mediaNodes)
      .set({ reachedBoot: boot })
      .where(and(eq(mediaNodes.id, nodeId), eq(mediaNodes.url, url), eq(mediaNodes.boot, boot)))
      .catch((error: unknown) => this.#log.warn({ nodeId, err: error }, 'noting a node reachable failed'));
  }

  /**
   * Whether a node's process is gone: nothing listens any more at its URL, which answered this run of the node
   * before ({@link probe}). A timeout or any other failure is not taken for gone: a network blip must not move
   * a class off a live node (its registry entry going stale decides then). A node found gone hands its open
   * sessions over (session-parts.ts): the room its teacher opens elsewhere continues the session. Never rejects.
   */
  async gone(nodeId: string): Promise<boolean> {
    try {
      const [node] = await this.#db
        .select({
          url: mediaNodes.url,
          boot: mediaNodes.boot,
          reachedBoot: mediaNodes.reachedBoot,
          lastSeenAt: mediaNodes.lastSeenAt,
        })
        .from(mediaNodes)
        .where(eq(mediaNodes.id, nodeId));
      if (node === undefined || node.reachedBoot !== node.boot) return false;
      if (!(await connectionRefused(node.url, GONE_CHECK_TIMEOUT_MS))) return false;
      // Its rooms went with it, when it was last heard of: their sessions wait for their teachers' rooms on
      // other nodes.
      await handOverNode(this.#db, nodeId, node.lastSeenAt);
      return true;
    } catch (error) {
      this.#log.warn({ nodeId, err: error }, 'checking whether a media node is gone failed');
      return false;
    }
  }

  /**
   * Finds the nodes holding open sessions whose process is gone ({@link gone}: nothing listens where they
   * answered this run) and hands their sessions over at once, their classes no longer live while the sessions
   * wait for their teachers' rooms elsewhere: a crashed media service stops showing its classes live within
   * {@link NODE_WATCH_MS} or so, not after {@link MEDIA_NODE_TIMEOUT_MS} of silence. Answers the classes set
   * not live. Never rejects (a failure is logged; the next watch tries again).
   */
  async watch(): Promise<number[]> {
    // One watch at a time: a slow database must not pile them up.
    if (this.#watching) return [];
    this.#watching = true;
    try {
      const holding = await this.#db
        .selectDistinct({ id: mediaNodes.id })
        .from(mediaNodes)
        .innerJoin(
          liveSessions,
          and(
            eq(liveSessions.nodeId, mediaNodes.id),
            isNull(liveSessions.endedAt),
            isNull(liveSessions.handoverAt),
          ),
        )
        .where(eq(mediaNodes.reachedBoot, mediaNodes.boot));
      const stopped: number[] = [];
      for (const { id } of holding) {
        const classIds = await this.#db
          .selectDistinct({ classId: liveSessions.classId })
          .from(liveSessions)
          .where(and(eq(liveSessions.nodeId, id), isNull(liveSessions.endedAt)));
        if (!(await this.gone(id))) continue;
        const notLive = await markNotLiveWhileWaiting(
          this.#db,
          classIds.map((row) => row.classId),
        );
        this.#log.warn({ nodeId: id, classes: notLive }, 'media node gone: its classes are not live');
        stopped.push(...notLive);
      }
      return stopped;
    } catch (error) {
      this.#log.warn({ err: error }, 'watching the media nodes failed');
      return [];
    } finally {
      this.#watching = false;
    }
  }

  /** The nodes that run an open session of the class; none when they cannot be read (logged). */
  async #running(classId: number): Promise<{ id: string; url: string }[] | void> {
    return this.#db
      .selectDistinct({ id: mediaNodes.id, url: mediaNodes.url })
      .from(liveSessions)
      .innerJoin(mediaNodes, eq(mediaNodes.id, liveSessions.nodeId))
      .where(and(eq(liveSessions.classId, classId), isNull(liveSessions.endedAt)))
      .catch((error: unknown) => this.#failed(error));
  }

  async #freshNodes(): Promise<{ id: string; url: string }[]> {
    return this.#db
      .select({ id: mediaNodes.id, url: mediaNodes.url })
      .from(mediaNodes)
      .where(gte(mediaNodes.lastSeenAt, new Date(Date.now() - MEDIA_NODE_TIMEOUT_MS)));
  }

  async #send(nodes: { id: string; url: string }[] | void, revocation: MediaRevocation): Promise<void> {
    if (!nodes || nodes.length === 0) return;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(MEDIA_NODE_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${TOKEN_TTL_S}s`)
      .sign(this.#key);
    await Promise.all(
      nodes.map(async (node) => {
        try {
          const response = await this.#fetch(`${node.url}${MEDIA_REVOCATION_PATH}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify(revocation),
            signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
          });
          if (!response.ok) throw new Error(`status ${response.status}`);
        } catch (error) {
          // Its next report is answered with the same revocation.
          this.#log.warn({ nodeId: node.id, err: error }, 'a media node did not take a revocation');
        }
      }),
    );
  }

  #failed(error: unknown): void {
    this.#log.error({ err: error }, 'finding the media nodes to tell failed');
  }
}
