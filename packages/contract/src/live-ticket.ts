import { z } from 'zod';

/** Roles inside a live room. */
export const LIVE_ROLES = ['teacher', 'student'] as const;
export type LiveRole = (typeof LIVE_ROLES)[number];

/** A live ticket is valid this long after it is issued. */
export const LIVE_TICKET_TTL_S = 5 * 60;

/** JWT audience of live tickets, so no other token is accepted as one. */
export const LIVE_TICKET_AUDIENCE = 'sea-media';

/** JWT audience of the media service's calls to the API server (signed with the same MEDIA_SECRET). */
export const MEDIA_CALLBACK_AUDIENCE = 'sea-server';

/**
 * Claims of the live ticket the API server signs for the media service. A ticket opens one connection: the
 * media service remembers its `jti` until it expires and refuses it again. It says nothing of whether the
 * class is live: the media service knows that from its own rooms.
 */
export const LiveTicketClaimsSchema = z.object({
  sub: z.string(),
  nickname: z.string(),
  classId: z.number().int().positive(),
  role: z.enum(LIVE_ROLES),
  jti: z.string().min(1).max(100),
  /**
   * A student's ticket for an edge node: the signalling URL of the class's origin node (where its teacher is),
   * from which the edge pulls the class. Absent on the origin and with a single node.
   */
  origin: z.url().optional(),
  /** A ticket an edge node signs for itself to pull a class from its origin (role `student`, no user). */
  relay: z.literal(true).optional(),
});
export type LiveTicketClaims = z.infer<typeof LiveTicketClaimsSchema>;

/** An ICE server entry as RTCPeerConnection takes it. */
export const IceServerSchema = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof IceServerSchema>;

/**
 * Query of `GET /api/classes/{id}/live-ticket`: `unreachable`, the media node URL (a ticket's `mediaUrl`) the
 * client lost its connection to, or could not connect to, just now. The API server checks whether that node
 * is gone and, if so, leaves it out of every placement from then on, instead of naming it again while its
 * registry entry is still fresh.
 */
export const LiveTicketQuerySchema = z.object({
  unreachable: z.string().max(2_000).optional(),
});
export type LiveTicketQuery = z.infer<typeof LiveTicketQuerySchema>;

/** `data` of `GET /api/classes/{id}/live-ticket`. */
export const LiveTicketSchema = z.object({
  ticket: z.string(),
  mediaUrl: z.string(),
  iceServers: z.array(IceServerSchema),
});
export type LiveTicket = z.infer<typeof LiveTicketSchema>;
