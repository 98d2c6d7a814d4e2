import type { FastifyInstance } from 'fastify';
import type * as Board from '@sea/contract/board';
import { bindRoomActions, type RoomActions, type SendDestinationOf } from '../room-bus/room-action.ts';
import { boardInkActions } from './board-actions.ts';
import { BoardGate } from './board-gate.ts';
import { boardRoutes } from './board-routes.ts';
import { BoardWrites } from './board-writes.ts';
import { stageActions } from './stage-actions.ts';

/**
 * The board of the live room (contract board.ts) on the room bus: the page on stage, the invited writer, ink,
 * erasing and the pointer, each SEND destination with its action; `/topic/board/{classId}` is a room topic
 * (members only). Its routes serve late joiners and replays. Ink still waiting to be written is written when the
 * server closes.
 */
export async function registerBoard(app: FastifyInstance): Promise<void> {
  const log = (level: 'warn' | 'error', message: string, error?: unknown): void =>
    app.log[level]({ err: error }, message);
  const bus = app.roomBus;
  const gate = new BoardGate(app.db);
  const writes = new BoardWrites(app.db, log);
  // The table of contents of the board's actions: a new destination in the contract needs its action here.
  const actions: RoomActions<SendDestinationOf<typeof Board>> = {
    ...stageActions({ db: app.db, room: bus, gate }),
    ...boardInkActions({ room: bus, gate, writes }),
  };
  // The board has its own write budget (ink streams many SENDs a second), so not the chat's limiter.
  bindRoomActions(bus, actions, { log });
  await app.register(boardRoutes(writes));
  app.events.on('sessionEnded', (session) => gate.sessionEnded(session.classId));
  // preClose: before the database closes.
  app.addHook('preClose', async () => writes.flush());
}
