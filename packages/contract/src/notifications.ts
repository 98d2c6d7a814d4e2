import { z } from 'zod';
import { id } from './ids.ts';

/** Notices per page of `GET /api/notifications`. */
export const NOTIFICATION_PAGE_SIZE = 20;

/**
 * What a notice is about: a class the user studies went live (`class_live`) or has a new announcement
 * (`announcement`), the teacher replied to the user's review (`review_reply`), a student enrolled in the
 * user's class (`enrolment`), the replay of a lecture of a class the user studies is ready (`replay_ready`).
 */
export const NOTIFICATION_KINDS = [
  'class_live',
  'announcement',
  'review_reply',
  'enrolment',
  'replay_ready',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** One notice; `nickname` is the other person's (the new student's), null where none is involved. */
export const NotificationItemSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  class_id: z.number().int(),
  class_name: z.string(),
  nickname: z.string().nullable(),
  read: z.boolean(),
  created_at: z.string(),
});
export type NotificationItem = z.infer<typeof NotificationItemSchema>;

/** `GET /api/notifications`: a page of notices, newest first, and how many of all are unread. */
export const NotificationListSchema = z.object({
  items: z.array(NotificationItemSchema),
  unread_count: z.number().int(),
});
export type NotificationList = z.infer<typeof NotificationListSchema>;

/** Query of `GET /api/notifications`. */
export const NotificationListQuerySchema = z.object({ page: z.coerce.number().int().min(0).default(0) });

/** Body of `POST /api/notifications/read`: these notices, or all of the caller's when `ids` is absent. */
export const NotificationReadSchema = z.object({ ids: z.array(id()).max(100).optional() });
export type NotificationRead = z.infer<typeof NotificationReadSchema>;

/**
 * `GET /api/notifications/stream` (bearer) is a Server-Sent Events stream: each new notice of the caller
 * arrives as an event named NOTIFICATION_EVENT whose data is a {@link NotificationItem} in JSON; a comment
 * line every NOTIFICATION_HEARTBEAT_MS keeps proxies from closing it.
 */
export const NOTIFICATION_EVENT = 'notification';
export const NOTIFICATION_HEARTBEAT_MS = 25_000;
