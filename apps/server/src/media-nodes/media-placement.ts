import type { FastifyBaseLogger } from 'fastify';
import type { LiveRole } from '@sea/contract/live-ticket';
import type { NodeRegistry } from './node-registry.ts';
import { placeStudent, placeTeacher } from './placement.ts';

/** Where a live ticket sends its holder: a node's signalling URL, and for an edge node the class's origin. */
export type TicketTarget = { mediaUrl: string; origin?: string };

/**
 * Chooses the media node of each live ticket. Without a registry (no REDIS_URL) every ticket names MEDIA_URL,
 * the one node. With one, the teacher goes to the class's origin (or the roomiest node, which becomes it) and a
 * student to the origin while it has room, else to an edge (see placement.ts); when the registry cannot be
 * read, or holds no node for the class, the ticket names MEDIA_URL as before.
 */
export class MediaPlacement {
  readonly #registry: NodeRegistry | null;
  readonly #defaultUrl: string;
  readonly #log: FastifyBaseLogger;

  constructor(registry: NodeRegistry | null, defaultUrl: string, log: FastifyBaseLogger) {
    this.#registry = registry;
    this.#defaultUrl = defaultUrl;
    this.#log = log;
  }

  async target(classId: number, role: LiveRole): Promise<TicketTarget> {
    if (!this.#registry) return { mediaUrl: this.#defaultUrl };
    try {
      const nodes = await this.#registry.nodes();
      const placement = role === 'teacher' ? placeTeacher(nodes, classId) : placeStudent(nodes, classId);
      if (!placement) return { mediaUrl: this.#defaultUrl };
      return placement.origin
        ? { mediaUrl: placement.mediaUrl, origin: placement.origin }
        : { mediaUrl: placement.mediaUrl };
    } catch (error) {
      this.#log.warn({ err: error }, 'the media node registry cannot be read: the ticket names MEDIA_URL');
      return { mediaUrl: this.#defaultUrl };
    }
  }
}
