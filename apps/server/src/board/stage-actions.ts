import {
  BOARD_PAGE_DESTINATION,
  BOARD_WRITER_DESTINATION,
  BoardPageSchema,
  type BoardEvent,
  boardTopic,
  BoardWriterSchema,
  MAX_WHITEBOARD_PAGES,
  WHITEBOARD_ID,
} from '@sea/contract/board';
import type { Database } from '../db/database.ts';
import { handsEvent } from '../classroom/hand-actions.ts';
import { handQueue, lowerHands } from '../classroom/hand-store.ts';
import { refuse } from '../room-bus/refusals.ts';
import { eventId, OK, roomAction } from '../room-bus/room-action.ts';
import type { RoomContext } from '../room-bus/room-ports.ts';
import { BOARD_REFUSALS } from './board-actions.ts';
import type { BoardGate } from './board-gate.ts';
import { boardState, nicknameOf, saveStage, saveWriter, stageLayout } from './board-store.ts';

export type StageActionsOptions = {
  db: Database;
  room: Pick<RoomContext, 'publishEvent'>;
  gate: BoardGate;
};

/**
 * The teacher's part of the board: the page on stage and its layout (`/app/board/page`; the page after the
 * whiteboard's last adds a blank page) and the student invited to write (`/app/board/writer`), chosen among the raised hands,
 * whose hand then goes down. Both are stored with the session before they are told.
 */
export function stageActions(options: StageActionsOptions) {
  const { db, room, gate } = options;
  const publish = (classId: number, body: BoardEvent) =>
    room.publishEvent({ destination: boardTopic(classId), id: eventId('board'), body });

  return {
    [BOARD_PAGE_DESTINATION]: roomAction({
      name: 'board page',
      admit: { schema: BoardPageSchema, who: 'teacher' },
      async act({ body }) {
        const sessionId = await gate.liveSession(body.roomId);
        if (sessionId === null) return refuse('not-live', BOARD_REFUSALS.notLive);
        const state = await boardState(db, sessionId);
        let { blankPages } = state;
        const { materialId, page } = body;
        if (materialId === WHITEBOARD_ID && page !== null) {
          if (page > Math.min(blankPages + 1, MAX_WHITEBOARD_PAGES)) {
            return refuse('bad-request', BOARD_REFUSALS.noPage);
          }
          blankPages = Math.max(blankPages, page);
        } else if (materialId !== null && page !== null) {
          const pages = await gate.pageCount(body.roomId, materialId);
          if (pages === null || page > pages) return refuse('bad-request', BOARD_REFUSALS.noPage);
        }
        const layout = body.layout ?? stageLayout(state.layout);
        await saveStage(db, { sessionId, materialId, page, blankPages, layout, at: new Date() });
        publish(body.roomId, {
          type: 'stage',
          roomId: body.roomId,
          stage: { materialId, page, blankPages, layout },
        });
        return OK;
      },
    }),
    [BOARD_WRITER_DESTINATION]: roomAction({
      name: 'board writer',
      admit: { schema: BoardWriterSchema, who: 'teacher' },
      async act({ body }) {
        const classId = body.roomId;
        const sessionId = await gate.liveSession(classId);
        if (sessionId === null) return refuse('not-live', BOARD_REFUSALS.notLive);
        const { userId } = body;
        if (userId !== null && !(await handQueue(db, classId)).some((hand) => hand.userId === userId)) {
          return refuse('not-found', '손을 든 수강생만 판서에 초대할 수 있어요.');
        }
        await saveWriter(db, sessionId, userId);
        gate.writerSet(sessionId, userId);
        const writer = userId === null ? null : { userId, nickname: await nicknameOf(db, userId) };
        publish(classId, { type: 'writer', roomId: classId, writer });
        if (userId !== null) {
          await lowerHands(db, classId, userId);
          room.publishEvent(await handsEvent(db, classId));
        }
        return OK;
      },
    }),
  };
}
