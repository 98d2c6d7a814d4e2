import { BOARD_WRITER_DESTINATION } from '@sea/contract/board';
import { Button } from '../../../components/ui/button.tsx';
import type { BoardView } from '../use-board.ts';
import type { BoardConnection } from '../use-board.ts';
import { BOARD_TEXTS as T } from '../texts.ts';

/**
 * Beside a raised hand in the teacher's queue: '판서 허락' lets that student write on the board (replacing the
 * one who could before); '판서 그만' takes it back.
 */
export function WriterInvite({
  view,
  connection,
  userId,
}: {
  view: BoardView;
  connection: BoardConnection | null;
  userId: string;
}) {
  const writing = view.writer?.userId === userId;
  return (
    <Button
      size="sm"
      variant={writing ? 'primary' : 'secondary'}
      aria-pressed={writing}
      onClick={() => connection?.publish(BOARD_WRITER_DESTINATION, { userId: writing ? null : userId })}
    >
      {writing ? T.stopWriting : T.allowWriting}
    </Button>
  );
}
