import { BoardSnapshotSchema, type BoardSnapshot } from '@sea/contract/board';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

/** `GET /api/classes/{classId}/board`: the stage, the writer and all ink of the current or last session. */
export function fetchBoard(classId: number): Promise<BoardSnapshot> {
  return http(toPath(ROUTES.classBoard, { classId }), { schema: BoardSnapshotSchema });
}
