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
 * again without it.
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

  async target(classId: number, role: LiveRole): Promise<TicketTarget> {
    if (!this.#registry) return { mediaUrl: this.#defaultUrl };
    try {
      const nodes = await this.#registry.nodes();
      const placement =
        role === 'teacher'
          ? await this.#placeTeacher(this.#registry, nodes, classId)
          : placeStudent(nodes, classId);
      if (!placement) return { mediaUrl: this.#defaultUrl };
      return placement.origin
        ? { mediaUrl: placement.mediaUrl, origin: placement.origin }
        : { mediaUrl: placement.mediaUrl };
    } catch (error) {
      this.#log.warn({ err: error }, 'the media node registry cannot be read: the ticket names MEDIA_URL');
      return { mediaUrl: this.#defaultUrl };
    }
  }

  /** {@link placeTeacher} on the nodes not found gone: each try leaves the gone one out. */
  async #placeTeacher(
    registry: NodeRegistry,
    nodes: MediaNodeEntry[],
    classId: number,
  ): Promise<Placement | null> {
    let left = nodes;
    for (let tries = 0; tries < nodes.length; tries += 1) {
      const placement = placeTeacher(left, classId);
      const node = left.find((entry) => entry.nodeId === placement?.nodeId);
      if (!placement || !node || !(await this.#gone(node.nodeId))) return placement;
      left = left.filter((entry) => entry !== node);
      this.#log.warn({ nodeId: node.nodeId, classId }, 'media node gone: left out of placement');
      await registry
        .forget(node)
        .catch((error: unknown) =>
          this.#log.warn({ err: error }, 'removing a gone node from the registry failed'),
        );
    }
    return placeTeacher(left, classId);
  }
}
