import {
  CHAT_DELETE_DESTINATION,
  CHAT_MUTE_DESTINATION,
  CHAT_SLOW_DESTINATION,
  ChatDeleteSchema,
  ChatMuteSchema,
  ChatSlowSchema,
  moderationTopic,
  type ModerationEvent,
} from '@sea/contract/classroom';
import type { Greeting } from '../room-bus/greetings.ts';
import { refuse, REFUSAL_TEXTS } from '../room-bus/refusals.ts';
import { eventId, OK, roomAction } from '../room-bus/room-action.ts';
import type { RoomContext } from '../room-bus/room-ports.ts';
import type { MessageLog } from './message-log.ts';
import type { DatabaseModeration } from './moderation-store.ts';

export interface ModerationActionsOptions {
  room: RoomContext;
  messages: Pick<MessageLog, 'remove'>;
  moderation: Pick<DatabaseModeration, 'mute' | 'setSlowMode'>;
}

/**
 * The teacher's moderation of the chat, one action per destination: delete a message (`/app/chat/delete`),
 * mute a student (`/app/chat/mute`), slow mode (`/app/chat/slow`). Each is stored first, then announced on
 * `/topic/moderation/{classId}` to every instance's subscribers.
 */
export function moderationActions(options: ModerationActionsOptions) {
  const { room, messages, moderation } = options;
  const announce = (event: ModerationEvent): void =>
    room.publishEvent({ destination: moderationTopic(event.roomId), id: eventId('moderation'), body: event });

  return {
    [CHAT_DELETE_DESTINATION]: roomAction({
      name: 'chat delete',
      admit: { schema: ChatDeleteSchema, who: 'teacher' },
      async act({ body: { roomId, messageId } }) {
        if (!(await messages.remove(roomId, messageId))) {
          return refuse('not-found', REFUSAL_TEXTS.messageNotFound);
        }
        announce({ type: 'messageDeleted', roomId, messageId });
        return OK;
      },
    }),
    [CHAT_MUTE_DESTINATION]: roomAction({
      name: 'chat mute',
      admit: { schema: ChatMuteSchema, who: 'teacher' },
      async act({ body: { roomId, userId, minutes } }) {
        if ((await room.roleOf(roomId, userId)) !== 'student') {
          return refuse('not-found', '이 강의의 수강생만 채팅을 막을 수 있어요.');
        }
        const until = await moderation.mute(roomId, userId, minutes);
        announce({ type: 'muted', roomId, userId, until: until?.toISOString() ?? null });
        return OK;
      },
    }),
    [CHAT_SLOW_DESTINATION]: roomAction({
      name: 'chat slow mode',
      admit: { schema: ChatSlowSchema, who: 'teacher' },
      async act({ body: { roomId, seconds } }) {
        await moderation.setSlowMode(roomId, seconds);
        announce({ type: 'slowMode', roomId, seconds });
        return OK;
      },
    }),
  };
}

/**
 * What a new subscriber of `/topic/moderation/{classId}` is told first, as moderation events: the slow mode
 * (0: off), to a student their own mute (until null: none), to the teacher every mute still running. A
 * student who joins a slowed room, or comes back after a change, knows it before writing; a teacher who
 * comes back still sees whom they muted.
 */
export function moderationState(moderation: Pick<DatabaseModeration, 'stateOf' | 'runningMutes'>): Greeting {
  return async (roomId, userId, role) => {
    const student = role === 'student';
    const { slowSeconds, mutedUntil } = await moderation.stateOf(roomId, student ? userId : null);
    const events: ModerationEvent[] = [{ type: 'slowMode', roomId, seconds: slowSeconds }];
    if (student) events.push({ type: 'muted', roomId, userId, until: mutedUntil?.toISOString() ?? null });
    if (role === 'teacher') {
      for (const mute of await moderation.runningMutes(roomId)) {
        events.push({ type: 'muted', roomId, userId: mute.userId, until: mute.until.toISOString() });
      }
    }
    return events;
  };
}
