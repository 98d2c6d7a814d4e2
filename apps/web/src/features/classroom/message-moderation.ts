import type { ChatMessage, RoomRole } from '@sea/contract/chat';
import { CHAT_DELETE_DESTINATION, CHAT_MUTE_DESTINATION } from '@sea/contract/classroom';
import type { RoomConnection } from '../../lib/realtime/room-connection.ts';

/** How long the teacher's mute button mutes a student. */
const MUTE_MINUTES = 5;

/** The teacher's actions on one chat message: delete it, and mute its writer when a student wrote it. */
export type ModerationActions = {
  onDelete: () => void;
  onMute?: (() => void) | undefined;
  muteMinutes: number;
};

/** The moderation of each chat message for the teacher; undefined (no actions) for a student. */
export function messageModeration(
  connection: RoomConnection | null,
  role: RoomRole,
): ((message: ChatMessage) => ModerationActions) | undefined {
  if (role !== 'teacher') return undefined;
  return (message) => {
    const writer = message.writer_id;
    return {
      onDelete: () => connection?.publish(CHAT_DELETE_DESTINATION, { messageId: message.id }),
      onMute:
        message.role === 'student' && writer !== null
          ? () => connection?.publish(CHAT_MUTE_DESTINATION, { userId: writer, minutes: MUTE_MINUTES })
          : undefined,
      muteMinutes: MUTE_MINUTES,
    };
  };
}
