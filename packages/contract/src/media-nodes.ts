import { z } from 'zod';
import { id } from './ids.ts';

/*
 * The internal protocol between media nodes and the API server (docs/media.md, "Nodes, sessions and
 * revocation"). Both directions carry a bearer JWT signed with MEDIA_SECRET: node → API server for the
 * audience MEDIA_CALLBACK_AUDIENCE (live-ticket.ts), API server → node for MEDIA_NODE_AUDIENCE.
 */

/** How often a media node reports its rooms; it also reports at once when a room opens or closes. */
export const MEDIA_NODE_REPORT_INTERVAL_MS = 5_000;

/** A node silent this long is taken as gone: its sessions end and its classes stop being live. */
export const MEDIA_NODE_TIMEOUT_MS = 20_000;

/** JWT audience of the API server's calls to a media node, so no other token is accepted as one. */
export const MEDIA_NODE_AUDIENCE = 'sea-media-node';

/** The media node's own route (POST, a {@link MediaRevocation}), under the node's internal URL. */
export const MEDIA_REVOCATION_PATH = '/internal/revocations';

/** A media node's name: stable across restarts of the same node (by default its host and port). */
export const MediaNodeIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits and . _ : - only');

const Key = z.string().min(1).max(100);
const UserId = z.string().min(1).max(100);
const Instant = z.iso.datetime({ offset: true });
const MAX_ITEMS = 10_000;

/** A room open on the node: one live session of a class. */
export const MediaRoomSchema = z.object({
  classId: id(),
  /** The session's key, made by the node when the room opened (its recording's folder too). */
  sessionKey: Key,
  startedAt: Instant,
  /** Whether the node records this session. */
  recording: z.boolean(),
  /** The students in the room now (user ids), so the API server can check they still may be there. */
  students: z.array(UserId).max(MAX_ITEMS),
  /**
   * The room was this node's edge room of the class until the teacher took it over here (the class's origin
   * node died): it continues the class's open session on the origin, as a further part of it, rather than
   * starting a session of its own.
   */
  takenOver: z.boolean().optional(),
});
export type MediaRoom = z.infer<typeof MediaRoomSchema>;

/**
 * A room that closed since the node's last acknowledged report. `handover`: it closed because its node stopped
 * while other nodes can hold the class (REDIS_URL), so its session stays open for the teacher's room on another
 * node to continue, as after the node's death.
 */
export const MediaClosedRoomSchema = MediaRoomSchema.omit({ students: true }).extend({
  endedAt: Instant,
  handover: z.boolean().optional(),
});
export type MediaClosedRoom = z.infer<typeof MediaClosedRoomSchema>;

/**
 * A class this node pulls from its origin node (an edge room): the students in it here. The API server counts
 * them in the attendance of the class's open session, as it counts the origin's students.
 */
export const MediaEdgeRoomSchema = z.object({
  classId: id(),
  students: z.array(UserId).max(MAX_ITEMS),
});
export type MediaEdgeRoom = z.infer<typeof MediaEdgeRoomSchema>;

/**
 * Body of `PUT /internal/media-nodes/{nodeId}`: the node's whole state, sent every
 * {@link MEDIA_NODE_REPORT_INTERVAL_MS} and whenever a room opens or closes. The API server makes its
 * records match it: rooms listed are live sessions, sessions of the node not listed have ended.
 */
export const MediaNodeReportSchema = z.object({
  /** Where the API server reaches this node (its internal URL). */
  url: z.url(),
  /** This run of the node process: a new value after every restart. */
  boot: Key,
  /** When this run started, on the node's clock (orders reports of two runs). */
  bootedAt: Instant,
  /** Counts this run's reports: a report older than one already applied is ignored. */
  seq: z.number().int().min(0),
  rooms: z.array(MediaRoomSchema).max(MAX_ITEMS),
  closed: z.array(MediaClosedRoomSchema).max(MAX_ITEMS),
  /** The classes this node relays from their origin, with their students here (none when absent). */
  edges: z.array(MediaEdgeRoomSchema).max(MAX_ITEMS).default([]),
});
export type MediaNodeReport = z.infer<typeof MediaNodeReportSchema>;

/**
 * What a node must end at once: rooms of `classIds` close (the class was deleted), rooms of `sessionKeys`
 * close (the API server ended their session already: the node was silent past the timeout), and each student
 * leaves the room of `classId` (or every room, without it: the user withdrew). Sent by the API server to the
 * node's {@link MEDIA_REVOCATION_PATH} as it happens, and answered to every report as a backstop.
 */
export const MediaRevocationSchema = z.object({
  classIds: z.array(id()).max(MAX_ITEMS),
  sessionKeys: z.array(Key).max(MAX_ITEMS),
  students: z.array(z.object({ userId: UserId, classId: id().optional() })).max(MAX_ITEMS),
});
export type MediaRevocation = z.infer<typeof MediaRevocationSchema>;
