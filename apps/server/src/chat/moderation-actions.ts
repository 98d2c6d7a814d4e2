import {
  ChatDeleteSchema,
  ChatMuteSchema,
  ChatSlowSchema,
  moderationTopic,
  type ModerationEvent,
} from '@sea/contract/classroom';
import type { Greeting } from '../room-bus/greetings.ts';
import type { RoomContext, RoomLog, SendHandler } from '../room-bus/room-ports.ts';
import type { MessageLog } from './message-log.ts';
import type { DatabaseModeration } from './moderation-store.ts';
import { refuse, REFUSAL_TEXTS } from '../room-bus/refusals.ts';
import { admit, eventId } from '../room-bus/room-action.ts';
import type { StompOutcome, StompSubscriber } from '../stomp/stomp-ports.ts';

export interface ModerationActionsOptions {
  room: RoomContext;
  messages: Pick<MessageLog, 'remove'>;
  moderation: Pick<DatabaseModeration, 'mute' | 'setSlowMode'>;
  log: RoomLog;
}

const OK: StompOutcome = { type: 'ok' };

/**
 * The teacher's moderation of the chat, one handler per destination: delete a message (`/app/chat/delete`),
 * mute a student (`/app/chat/mute`), slow mode (`/app/chat/slow`). Each is stored first, then announced on
 * `/topic/moderation/{classId}` to every instance's subscribers.
 */
export function moderationActions(options: ModerationActionsOptions): {
  delete: SendHandler;
  mute: SendHandler;
  slow: SendHandler;
} {
  const { room, messages, moderation, log } = options;
  const announce = (event: ModerationEvent): void =>
    room.publishEvent({ destination: moderationTopic(event.roomId), id: eventId('moderation'), body: event });
  const failed = (what: string, error: unknown): StompOutcome => {
    log('error', `chat ${what} failed`, error);
    return refuse('unavailable', REFUSAL_TEXTS.unavailable);
  };

  return {
    delete: {
      async send(subscriber: StompSubscriber, text: string): Promise<StompOutcome> {
        const admitted = await admit(room, subscriber, ChatDeleteSchema, text, 'teacher');
        if ('outcome' in admitted) return admitted.outcome;
        const { roomId, messageId } = admitted.body;
        try {
          if (!(await messages.remove(roomId, messageId))) {
            return refuse('not-found', REFUSAL_TEXTS.messageNotFound);
          }
        } catch (error) {
          return failed('delete', error);
        }
        announce({ type: 'messageDeleted', roomId, messageId });
        return OK;
      },
    },
    mute: {
      async send(subscriber: StompSubscriber, text: string): Promise<StompOutcome> {
        const admitted = await admit(room, subscriber, ChatMuteSchema, text, 'teacher');
        if ('outcome' in admitted) return admitted.outcome;
        const { roomId, userId, minutes } = admitted.body;
        if ((await room.roleOf(roomId, userId)) !== 'student') {
          return refuse('not-found', '이 강의의 수강생만 채팅을 막을 수 있어요.');
        }
        let until: Date | null;
        try {
          until = await moderation.mute(roomId, userId, minutes);
        } catch (error) {
          return failed('mute', error);
        }
        announce({ type: 'muted', roomId, userId, until: until?.toISOString() ?? null });
        return OK;
      },
    },
    slow: {
      async send(subscriber: StompSubscriber, text: string): Promise<StompOutcome> {
        const admitted = await admit(room, subscriber, ChatSlowSchema, text, 'teacher');
        if ('outcome' in admitted) return admitted.outcome;
        const { roomId, seconds } = admitted.body;
        try {
          await moderation.setSlowMode(roomId, seconds);
        } catch (error) {
          return failed('slow mode', error);
        }
        announce({ type: 'slowMode', roomId, seconds });
        return OK;
      },
    },
  };
}

/**
 * What a new subscriber of `/topic/moderation/{classId}` is told first, as moderation events: the slow mode
 * (0: off), and to a student their own mute (until null: none). A student who joins a slowed room, or comes
 * back after a change, knows it before writing.
 */
export function moderationState(moderation: Pick<DatabaseModeration, 'stateOf'>): Greeting {
  return async (roomId, userId, role) => {
    const student = role === 'student';
    const { slowSeconds, mutedUntil } = await moderation.stateOf(roomId, student ? userId : null);
    const events: ModerationEvent[] = [{ type: 'slowMode', roomId, seconds: slowSeconds }];
    if (student) events.push({ type: 'muted', roomId, userId, until: mutedUntil?.toISOString() ?? null });
    return events;
  };
}
