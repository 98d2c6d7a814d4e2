import { CHAT_ENDPOINT } from '@sea/contract/chat';
import { env } from '../../config/env.ts';

/** The chat WebSocket's URL: on the API origin when one is configured, else on the page's own origin. */
export function roomSocketUrl(): string {
  const origin = env.apiOrigin || window.location.origin;
  return `${origin.replace(/^http/, 'ws')}${CHAT_ENDPOINT}`;
}
