import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ChatHistoryQuerySchema, ChatMessageSchema, MAX_CHAT_LENGTH } from '@sea/contract/chat';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import { errorResponses } from '../envelope.ts';
import { accountIdOf } from '../plugins/auth.ts';
import { relationTo } from '../classes/class-role.ts';
import { roleError } from '../errors.ts';
import type { DatabaseMessageLog } from './message-log.ts';

/** `GET /find/chat/list/{classId}`: a page of the class's chat history, for its teacher and students. */
export function chatRoutes(messages: DatabaseMessageLog) {
  return async (app: FastifyInstance): Promise<void> => {
    app.withTypeProvider<ZodTypeProvider>().get(
      ROUTES.chatHistory,
      {
        onRequest: app.authenticate,
        schema: {
          summary: 'Chat history of a class (bare array, oldest first)',
          description:
            'The most recent `size` messages; `before` pages further back, `after` returns what came later ' +
            '(catching up after a reconnect). Teacher and enrolled students only (418 otherwise).\n\n' +
            'Live chat: STOMP 1.2 (1.0/1.1 accepted) over the WebSocket `/ws`, CONNECT with ' +
            '`Authorization: Bearer <accessToken>`; SUBSCRIBE `/topic/greetings/{classId}`; SEND `/app/hello` ' +
            `with \`{"roomId", "content"}\` (at most ${MAX_CHAT_LENGTH} characters). A SEND is refused without ` +
            'closing (too long, blank, too fast, bad body) by a MESSAGE on `/user/queue/errors` with `{code, message, receipt}`; ' +
            'a RECEIPT means the message is stored. Protocol and permission failures answer ERROR and close.',
          tags: ['chat'],
          security: [{ bearer: [] }],
          params: ClassIdParamsSchema,
          querystring: ChatHistoryQuerySchema,
          response: { 200: z.array(ChatMessageSchema), ...errorResponses(400, 401, 404, 418) },
        },
      },
      async (request) => {
        const { classId } = request.params;
        const userId = accountIdOf(request);
        // 404 for an unknown class, before any 418.
        if ((await relationTo(app.db, classId, userId)) === 'none') {
          throw roleError(
            '이 강의의 채팅을 볼 권한이 없어요.',
            'Only the teacher and students of the class can read its chat.',
          );
        }
        return messages.history(classId, request.query);
      },
    );
  };
}
