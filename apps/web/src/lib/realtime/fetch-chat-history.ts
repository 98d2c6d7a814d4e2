import { CHAT_HISTORY_MAX, type ChatMessage } from '@sea/contract/chat';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../http.ts';

/**
 * `GET /find/chat/list/{classId}` (bare array, oldest first): the latest page, or with `after` what came
 * after a message id (up to the maximum page).
 */
export function fetchChatHistory(classId: number, after?: number): Promise<ChatMessage[]> {
  return http<ChatMessage[]>(toPath(ROUTES.chatHistory, { classId }), {
    bare: true,
    query: after === undefined ? {} : { after, size: CHAT_HISTORY_MAX },
  });
}
