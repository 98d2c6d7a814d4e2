import type { MediaNodeEntry } from '@sea/contract/media-registry';

/** Where a live ticket sends its holder: a node's signalling URL, and for an edge the class's origin. */
export type Placement = { nodeId: string; mediaUrl: string; origin?: string };

const free = (node: MediaNodeEntry) => node.capacity - node.load;
/** Most free places first; the node id breaks ties, so the same registry always gives the same answer. */
const roomiest = (a: MediaNodeEntry, b: MediaNodeEntry) =>
  free(b) - free(a) || a.nodeId.localeCompare(b.nodeId);

/**
 * The teacher's node, which becomes the class's origin: the node already holding the class's room (a
 * reconnection comes back to its room), else an edge of the class (its origin died: the edge's room and
 * students are taken over), else the node with the most free places. Null without nodes.
 */
export function placeTeacher(nodes: MediaNodeEntry[], classId: number): Placement | null {
  const sorted = [...nodes].sort(roomiest);
  const origin =
    nodes.find((node) => node.origins.includes(classId)) ??
    sorted.find((node) => node.edges.includes(classId)) ??
    sorted[0];
  return origin ? { nodeId: origin.nodeId, mediaUrl: origin.mediaUrl } : null;
}

/**
 * A student's node: the class's origin while it has room, then an edge already pulling the class, then any
 * other node with room (it becomes an edge), roomiest first; an edge's placement names the origin to pull
 * from. When every node is full the origin is named anyway and refuses the student as `full`. Without an
 * origin (it died, its entry gone or stale) an edge of the class with room, the one the teacher is sent to
 * ({@link placeTeacher}): its room waits there for the teacher, who takes it over. Null when no node holds the
 * class (it is not live: the ticket goes to the default node, which says so).
 */
export function placeStudent(nodes: MediaNodeEntry[], classId: number): Placement | null {
  const origin = nodes.find((node) => node.origins.includes(classId));
  if (!origin) {
    const edge = [...nodes].sort(roomiest).find((node) => node.edges.includes(classId) && free(node) > 0);
    return edge ? { nodeId: edge.nodeId, mediaUrl: edge.mediaUrl } : null;
  }
  if (free(origin) > 0) return { nodeId: origin.nodeId, mediaUrl: origin.mediaUrl };
  const others = nodes.filter((node) => node !== origin && free(node) > 0).sort(roomiest);
  const edge = others.find((node) => node.edges.includes(classId)) ?? others[0];
  if (!edge) return { nodeId: origin.nodeId, mediaUrl: origin.mediaUrl };
  return { nodeId: edge.nodeId, mediaUrl: edge.mediaUrl, origin: origin.mediaUrl };
}
