import type { FastifyBaseLogger } from 'fastify';
import type { LiveRole } from '@sea/contract/live-ticket';
import type { MediaNodeEntry } from '@sea/contract/media-registry';
import type { NodeRegistry } from './node-registry.ts';
import { placeStudent, placeTeacher, type Placement } from './placement.ts';

/** Where a live ticket sends its holder: a node's signalling URL, and for an edge node the class's origin. */
export type TicketTarget = { mediaUrl: string; origin?: string };

/** Whether a node's process is gone although its registry entry is still fresh (MediaNodes.gone). */
export type NodeGone = (nodeId: string) => Promise<boolean>;

/**
 * Chooses the media node of each live ticket. Without a registry (no REDIS_URL) every ticket names MEDIA_URL,
 * the one node. With one, the teacher goes to the class's origin (or the roomiest node, which becomes it) and a
 * student to the origin while it has room, else to an edge (see placement.ts); when the registry cannot be
 * read, or holds no node for the class, the ticket names MEDIA_URL as before.
 *
 * A node that died keeps a fresh registry entry for up to MEDIA_REGISTRY_STALE_MS, and a teacher whose origin
 * died asks for a ticket at once: so the node chosen for a teacher is checked first ({@link NodeGone}), and one
 * found gone is removed from the registry (students and edges then leave it out too) and the teacher placed
 * again without it. A student's node is checked so when the client says it could not reach it (a dead edge
 * with places left would otherwise be named again until its entry goes stale).
 */
export class MediaPlacement {
  readonly #registry: NodeRegistry | null;
  readonly #defaultUrl: string;
  readonly #log: FastifyBaseLogger;
  readonly #gone: NodeGone;

  constructor(
    registry: NodeRegistry | null,
    defaultUrl: string,
    log: FastifyBaseLogger,
    gone: NodeGone = async () => false,
  ) {
    this.#registry = registry;
    this.#defaultUrl = defaultUrl;
    this.#log = log;
    this.#gone = gone;
  }

  /**
   * `unreachable`: the node URL the client lost or could not connect to just now; a placement naming it
   * checks first whether that node is gone (as a teacher's always does).
   */
  async target(classId: number, role: LiveRole, unreachable?: string): Promise<TicketTarget> {
    if (!this.#registry) return { mediaUrl: this.#defaultUrl };
    try {
      const nodes = await this.#registry.nodes();
      const place = (left: MediaNodeEntry[]) =>
        role === 'teacher' ? placeTeacher(left, classId) : placeStudent(left, classId);
      // A teacher's node is always checked; a student's when the client could not reach it.
      const suspect = (node: MediaNodeEntry) => role === 'teacher' || node.mediaUrl === unreachable;
      const placement = await this.#place(this.#registry, nodes, classId, place, suspect);
      if (!placement) return { mediaUrl: this.#defaultUrl };
      return placement.origin
        ? { mediaUrl: placement.mediaUrl, origin: placement.origin }
        : { mediaUrl: placement.mediaUrl };
    } catch (error) {
      this.#log.warn({ err: error }, 'the media node registry cannot be read: the ticket names MEDIA_URL');
      return { mediaUrl: this.#defaultUrl };
    }
  }

  /**
   * `place` on the nodes not found gone: a node it names that is `suspect` is checked, and one found gone is
   * removed from the registry (students and edges then leave it out too) and left out of the next try.
   */
  async #place(
    registry: NodeRegistry,
    nodes: MediaNodeEntry[],
    classId: number,
    place: (nodes: MediaNodeEntry[]) => Placement | null,
    suspect: (node: MediaNodeEntry) => boolean,
  ): Promise<Placement | null> {
    let left = nodes;
    for (let tries = 0; tries < nodes.length; tries += 1) {
      const placement = place(left);
      const node = left.find((entry) => entry.nodeId === placement?.nodeId);
      if (!placement || !node || !suspect(node) || !(await this.#gone(node.nodeId))) return placement;
      left = left.filter((entry) => entry !== node);
      this.#log.warn({ nodeId: node.nodeId, classId }, 'media node gone: left out of placement');
      await registry
        .forget(node)
        .catch((error: unknown) =>
          this.#log.warn({ err: error }, 'removing a gone node from the registry failed'),
        );
    }
    return place(left);
  }
}
