import { z } from 'zod';
import { id } from './ids.ts';
import { MediaNodeIdSchema } from './media-nodes.ts';

/*
 * The registry of media nodes in Redis (only when REDIS_URL is set; docs/media.md, "Several media nodes"):
 * every node writes its entry under `${MEDIA_REGISTRY_PREFIX}${nodeId}` with an expiry, the API server reads
 * the entries to place a class's teacher and students. A node that stops writing drops out when its entry
 * expires.
 */

/** Key prefix of the node entries. */
export const MEDIA_REGISTRY_PREFIX = 'sea:media-node:';

/** How often a node rewrites its entry (also at once when a room opens or closes or a student comes or goes). */
export const MEDIA_REGISTRY_HEARTBEAT_MS = 1_000;

/** An entry not rewritten for this long expires: the node is taken as gone and gets no new tickets. */
export const MEDIA_REGISTRY_TTL_MS = 6_000;

/**
 * An entry older than this (a missed heartbeat and a second; judged by its remaining expiry in Redis, so no
 * clock is compared) gets no new tickets already: a node that died or hangs drops out of placement within 2 s,
 * before its clients notice that it hangs (the media service's socket.io heart-beat, at least 2.5 s), so the
 * ticket they ask for then names another node.
 */
export const MEDIA_REGISTRY_STALE_MS = 2_000;

/** One media node as the registry holds it. */
export const MediaNodeEntrySchema = z.object({
  nodeId: MediaNodeIdSchema,
  /** Where clients (browsers, and other nodes pulling a class) open the node's signalling. */
  mediaUrl: z.url(),
  /** The most students the node takes (MEDIA_CAPACITY). */
  capacity: z.number().int().min(1),
  /** Students connected to the node now, over all its rooms. */
  load: z.number().int().min(0),
  /** Classes whose teacher is on this node (the node is their origin). */
  origins: z.array(id()).max(10_000),
  /** Classes this node pulls from their origin for its own students (the node is one of their edges). */
  edges: z.array(id()).max(10_000),
  /** When the node wrote the entry, on its clock. */
  at: z.iso.datetime({ offset: true }),
});
export type MediaNodeEntry = z.infer<typeof MediaNodeEntrySchema>;
