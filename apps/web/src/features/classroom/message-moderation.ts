import type { ChatMessage, RoomRole } from '@sea/contract/chat';
import { CHAT_DELETE_DESTINATION, CHAT_MUTE_DESTINATION } from '@sea/contract/classroom';
import type { RoomConnection } from '../../lib/realtime/room-connection.ts';

/** The lengths a teacher may mute a student for, in minutes; the dialog starts on the second. */
export const MUTE_CHOICES = [1, 5, 10, 30] as const;

/** A student the teacher is about to mute: asked first, with the length to choose. */
export type MuteTarget = { userId: string; nickname: string };

/** The teacher's actions on one chat message: delete it, and mute its writer when a student wrote it. */
export type ModerationActions = {
  onDelete: () => void;
  onMute?: (() => void) | undefined;
};

/** Mutes a student for `minutes` (0 lifts the mute). */
export function muteStudent(connection: RoomConnection | null, userId: string, minutes: number): void {
  connection?.publish(CHAT_MUTE_DESTINATION, { userId, minutes });
}

/** How long a deleted message can still be kept ('되돌리기') before the delete is sent. */
export const UNDO_DELETE_MS = 5_000;

/**
 * Sends `send` after UNDO_DELETE_MS unless the returned undo runs first; `offerUndo` shows the way back (a
 * notice with '되돌리기') for that long.
 */
export function deleteLater(
  send: () => void,
  offerUndo: (undo: () => void, forMs: number) => void,
): () => void {
  const timer = setTimeout(send, UNDO_DELETE_MS);
  const undo = () => clearTimeout(timer);
  offerUndo(undo, UNDO_DELETE_MS);
  return undo;
}

/**
 * The moderation of each chat message for the teacher (muting asks first; a delete waits UNDO_DELETE_MS for
 * '되돌리기' through `offerUndo`); undefined for a student.
 */
export function messageModeration(
  connection: RoomConnection | null,
  role: RoomRole,
  askMute: (target: MuteTarget) => void,
  offerUndo: (undo: () => void, forMs: number) => void = () => undefined,
): ((message: ChatMessage) => ModerationActions) | undefined {
  if (role !== 'teacher') return undefined;
  return (message) => {
    const writer = message.writer_id;
    return {
      onDelete: () =>
        deleteLater(() => connection?.publish(CHAT_DELETE_DESTINATION, { messageId: message.id }), offerUndo),
      onMute:
        message.role === 'student' && writer !== null
          ? () => askMute({ userId: writer, nickname: message.writer?.trim() || '' })
          : undefined,
    };
  };
}
