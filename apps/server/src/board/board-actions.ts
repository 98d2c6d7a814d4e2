import {
  BOARD_CLEAR_DESTINATION,
  BOARD_ERASE_DESTINATION,
  BOARD_INK_DESTINATION,
  BOARD_POINTER_DESTINATION,
  BOARD_SENDS_PER_SECOND,
  BoardClearSchema,
  BoardEraseSchema,
  type BoardEvent,
  BoardInkSchema,
  BoardPointerSchema,
  boardTopic,
  INK_DECIMALS,
  type InkPoint,
  MAX_POINTS_PER_STROKE,
  MAX_STROKES_PER_PAGE,
} from '@sea/contract/board';
import { refuse } from '../room-bus/refusals.ts';
import { type Admitted, eventId, OK, roomAction } from '../room-bus/room-action.ts';
import type { RoomContext } from '../room-bus/room-ports.ts';
import { TokenBuckets } from '../room-bus/token-buckets.ts';
import type { StompOutcome } from '../stomp/stomp-ports.ts';
import type { BoardGate } from './board-gate.ts';
import { eraseInk, type PageRef } from './board-store.ts';
import type { BoardWrites } from './board-writes.ts';

export type BoardActionsOptions = {
  room: Pick<RoomContext, 'publishEvent'>;
  gate: BoardGate;
  writes: BoardWrites;
};

/** The Korean reasons of the board's refusals. */
export const BOARD_REFUSALS = {
  notLive: '라이브 수업 중에만 판서할 수 있어요.',
  notWriter: '선생님이 판서를 허락한 수강생만 쓸 수 있어요.',
  noPage: '없는 쪽이에요. 자료를 다시 골라 주세요.',
  strokeTooLong: '한 획이 너무 길어요. 펜을 떼고 이어서 써 주세요.',
  strokeDone: '이미 끝난 획이에요.',
  pageFull: '이 쪽에 판서가 너무 많아요. 지우고 다시 써 주세요.',
  textMissing: '글자 도구에는 글자를 입력해 주세요.',
  tooFast: '판서를 너무 빨리 보내고 있어요. 잠시 후 다시 시도해 주세요.',
} as const;

const round = (value: number) => Number(value.toFixed(INK_DECIMALS));

/**
 * The board's ink, erasing and laser pointer (`/app/board/ink`, `erase`, `clear`, `pointer`): the teacher, or
 * the student the teacher invited, on a page that exists, while the class is live. Ink reaches the subscribers
 * before it is stored (see {@link BoardWrites}); the checks on its hot path are answered from memory.
 */
export function boardInkActions(options: BoardActionsOptions) {
  const { room, gate, writes } = options;
  const budget = new TokenBuckets({
    capacity: BOARD_SENDS_PER_SECOND,
    refillPerSecond: BOARD_SENDS_PER_SECOND,
  });
  const publish = (classId: number, body: BoardEvent) =>
    room.publishEvent({ destination: boardTopic(classId), id: eventId('board'), body });

  /** The page the sender may write on now, or the refusal. */
  const writable = async (
    sent: Admitted<{ roomId: number; materialId?: number; page?: number }>,
  ): Promise<PageRef | StompOutcome> => {
    if (!budget.take(sent.userId)) return refuse('rate-limited', BOARD_REFUSALS.tooFast);
    const classId = sent.body.roomId;
    const sessionId = await gate.liveSession(classId);
    if (sessionId === null) return refuse('not-live', BOARD_REFUSALS.notLive);
    if (sent.role !== 'teacher' && (await gate.writer(sessionId)) !== sent.userId) {
      return refuse('teacher-only', BOARD_REFUSALS.notWriter);
    }
    const { materialId, page } = sent.body;
    if (materialId === undefined || page === undefined) return { sessionId, materialId: 0, page: 0 };
    const pages = await gate.pageCount(classId, materialId);
    if (pages === null || page > pages) return refuse('bad-request', BOARD_REFUSALS.noPage);
    return { sessionId, materialId, page };
  };
  const refused = (value: PageRef | StompOutcome): value is StompOutcome => 'type' in value;

  return {
    [BOARD_INK_DESTINATION]: roomAction({
      name: 'board ink',
      admit: { schema: BoardInkSchema, who: 'anyone' },
      async act(sent) {
        const at = await writable(sent);
        if (refused(at)) return at;
        const { body } = sent;
        const text = body.tool === 'text' ? (body.text ?? null) : null;
        if (body.tool === 'text' && text === null) return refuse('bad-request', BOARD_REFUSALS.textMissing);
        const stroke = await gate.stroke(at, body.strokeId);
        if (stroke?.done) return refuse('bad-request', BOARD_REFUSALS.strokeDone);
        const from = stroke?.count ?? 0;
        if (from + body.points.length > MAX_POINTS_PER_STROKE) {
          return refuse('bad-request', BOARD_REFUSALS.strokeTooLong);
        }
        const onPage = stroke === null ? await gate.strokesOn(at) : null;
        if (onPage !== null && onPage >= MAX_STROKES_PER_PAGE)
          return refuse('bad-request', BOARD_REFUSALS.pageFull);
        const points = body.points.map(([x, y, pressure]): InkPoint => [round(x), round(y), round(pressure)]);
        gate.inked(at, body.strokeId, { count: from + points.length, done: body.done }, onPage);
        const { strokeId, tool, color, width, done } = body;
        publish(body.roomId, {
          type: 'ink',
          roomId: body.roomId,
          materialId: at.materialId,
          page: at.page,
          strokeId,
          tool,
          color,
          width,
          text,
          from,
          points,
          done,
          by: sent.userId,
        });
        const now = new Date();
        writes.ink({
          ...at,
          strokeId,
          userId: sent.userId,
          tool,
          color,
          width,
          text,
          points,
          done,
          startedAt: now,
          endedAt: now,
        });
        return OK;
      },
    }),
    [BOARD_ERASE_DESTINATION]: roomAction({
      name: 'board erase',
      admit: { schema: BoardEraseSchema, who: 'anyone' },
      async act(sent) {
        const at = await writable(sent);
        if (refused(at)) return at;
        const { roomId, strokeIds } = sent.body;
        publish(roomId, {
          type: 'erase',
          roomId,
          materialId: at.materialId,
          page: at.page,
          strokeIds,
          by: sent.userId,
        });
        await writes.then('board erase', (db) => eraseInk(db, at, new Date(), strokeIds));
        gate.erased(at);
        return OK;
      },
    }),
    [BOARD_CLEAR_DESTINATION]: roomAction({
      name: 'board clear',
      admit: { schema: BoardClearSchema, who: 'anyone' },
      async act(sent) {
        const at = await writable(sent);
        if (refused(at)) return at;
        const { roomId } = sent.body;
        publish(roomId, { type: 'clear', roomId, materialId: at.materialId, page: at.page, by: sent.userId });
        await writes.then('board clear', (db) => eraseInk(db, at, new Date()));
        gate.erased(at);
        return OK;
      },
    }),
    [BOARD_POINTER_DESTINATION]: roomAction({
      name: 'board pointer',
      admit: { schema: BoardPointerSchema, who: 'anyone' },
      async act(sent) {
        const at = await writable(sent);
        if (refused(at)) return at;
        const { roomId, x, y } = sent.body;
        const hidden = x === null || y === null;
        publish(roomId, {
          type: 'pointer',
          roomId,
          x: hidden ? null : round(x),
          y: hidden ? null : round(y),
          by: sent.userId,
        });
        return OK;
      },
    }),
  };
}
