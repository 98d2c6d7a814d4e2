import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  BoardEventSchema,
  boardTopic,
  type BoardEvent,
  type BoardStage,
  type BoardWriterState,
} from '@sea/contract/board';
import type { RoomConnection } from '../../lib/realtime/room-connection.ts';
import { fetchBoard } from './api/fetch-board.ts';
import { BoardState } from './board-state.ts';

/** After a failed read of the board's snapshot, the next one is made this much later. */
export const BOARD_RETRY_MS = 2_000;

/** The part of the room connection the board uses. */
export type BoardConnection = Pick<RoomConnection, 'watch' | 'on' | 'isWatching' | 'publish' | 'state'>;

export type BoardView = {
  board: BoardState;
  stage: BoardStage;
  writer: BoardWriterState;
  /**
   * Whether the board's topic is subscribed and its snapshot loaded on the current connection: before that, a
   * change the teacher makes would not be sent (the connection publishes nothing while it connects) and the
   * stage shown is not yet the server's.
   */
  ready: boolean;
};

/**
 * The board of a live room over the room's connection: the snapshot (`GET .../board`) is read whenever the
 * subscription to the board's topic takes effect (joining late, or after a reconnect), and the events heard
 * while it is on its way are applied again on top of it, so a late joiner lands on the current page with all
 * its ink and misses nothing drawn meanwhile.
 */
export function useBoard(
  connection: BoardConnection | null,
  classId: number,
  me: string | null,
  load: (classId: number) => ReturnType<typeof fetchBoard> = fetchBoard,
): BoardView {
  const [board] = useState(() => new BoardState(me));
  const [ready, setReady] = useState(false);
  board.setMe(me);
  useEffect(() => {
    setReady(false);
    if (!connection) return undefined;
    const destination = boardTopic(classId);
    let stopped = false;
    let pending: BoardEvent[] | null = null;
    let reads = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const reload = (): void => {
      const read = ++reads;
      pending = [];
      setReady(false);
      load(classId).then(
        (snapshot) => {
          if (stopped || read !== reads) return;
          const heard = pending ?? [];
          pending = null;
          board.load(snapshot);
          for (const event of heard) board.apply(event);
          setReady(true);
        },
        (error: unknown) => {
          if (stopped || read !== reads) return;
          pending = null;
          console.warn('the board could not be loaded, trying again', error);
          // The presenter waits for the board (`ready`): a failed read is tried again, not left as it is.
          retry = setTimeout(() => {
            if (!stopped && read === reads && connection.isWatching(destination)) reload();
          }, BOARD_RETRY_MS);
        },
      );
    };
    const unwatch = connection.watch(destination, (body) => {
      const parsed = BoardEventSchema.safeParse(body);
      if (!parsed.success) return;
      pending?.push(parsed.data);
      board.apply(parsed.data);
    });
    const unlisten = connection.on('watching', (watched) => {
      if (watched === destination) reload();
    });
    if (connection.isWatching(destination)) reload();
    return () => {
      stopped = true;
      clearTimeout(retry);
      unwatch();
      unlisten();
    };
    // `load` is read once per connection, as the room's other state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [board, classId, connection]);
  const stage = useSyncExternalStore(
    (notify) => board.on('stageChanged', notify),
    () => board.stage,
  );
  const writer = useSyncExternalStore(
    (notify) => board.on('stageChanged', notify),
    () => board.writer,
  );
  // A lost connection makes the board wait for the next subscription's snapshot again.
  const connected = useSyncExternalStore(
    (notify) => connection?.on('stateChanged', notify) ?? (() => undefined),
    () => connection?.state === 'connected',
  );
  return { board, stage, writer, ready: ready && connected };
}
