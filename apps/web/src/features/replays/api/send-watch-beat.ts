import { ROUTES, toPath } from '@sea/contract/paths';
import { WatchStateSchema } from '@sea/contract/sessions';
import type { WatchBeat, WatchState } from '@sea/contract/sessions';
import { http } from '../../../lib/http.ts';

/**
 * `POST /api/classes/{id}/sessions/{sessionId}/watch`. `keepalive` lets the last beat of a closing page
 * reach the server after the page is gone.
 */
export function sendWatchBeat(
  classId: number,
  sessionId: number,
  beat: WatchBeat,
  keepalive = false,
): Promise<WatchState> {
  return http(toPath(ROUTES.sessionWatch, { classId, sessionId }), {
    method: 'POST',
    json: beat,
    schema: WatchStateSchema,
    keepalive,
  });
}
