import { log } from '../log.ts';
import type { FindOrigin, LostOrigin } from '../registry/origin-finder.ts';
import type { Room } from '../room/room.ts';

/** How often an edge room that lost its origin looks for the class's new one. */
export const FOLLOW_EVERY_MS = 250;

/**
 * An edge room whose origin was lost (the origin died; its teacher reconnects on another node, which becomes
 * the class's origin) looks for the new origin every {@link FOLLOW_EVERY_MS} until `untilMs`
 * (performance.now(); the room's teacher grace period after the loss) and, once found, `pull`s from there: the
 * room and its students' connections stay, the streams come back as new producers. It stops when the room
 * closes or gets a teacher (the teacher came to this node, which took the room over).
 */
export function followOrigin(
  room: Room,
  lost: LostOrigin,
  untilMs: number,
  find: FindOrigin,
  pull: (origin: string) => void,
  everyMs = FOLLOW_EVERY_MS,
): void {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let warned = false;
  let unsubscribe = () => {};
  const stop = () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    unsubscribe();
  };
  unsubscribe = room.closed.subscribe(stop);
  const look = async () => {
    timer = null;
    if (stopped) return;
    if (room.isClosedNow || room.hasTeacher || performance.now() > untilMs) {
      stop();
      return;
    }
    let origin: string | null = null;
    try {
      origin = await find(room.classId, lost);
    } catch (error) {
      // The registry cannot be read now: looked at again at the next turn; told once per loss.
      if (!warned)
        log.warn({ err: error, classId: room.classId }, "looking for the class's new origin failed");
      warned = true;
    }
    if (stopped) return;
    if (origin !== null && !room.hasTeacher && !room.isClosedNow) {
      stop();
      log.info({ classId: room.classId, origin, lost: lost.url }, 'following the class to its new origin');
      pull(origin);
      return;
    }
    timer = setTimeout(() => void look(), everyMs);
  };
  void look();
}
