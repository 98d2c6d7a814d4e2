import type { ChatMessage } from '@sea/contract/chat';
import { StompParser } from '../src/stomp/stomp-parser.ts';
import type { StompSubscriber } from '../src/stomp/stomp-ports.ts';

// Stand-ins for the room bus's unit tests: sessions that record, and messages to carry.

/** A session as the bus sees it, keeping what it was sent and why it was aborted. */
export function subscriber(
  userId: string,
  version = '1.2',
): StompSubscriber & { writes: Uint8Array[]; aborted: string[] } {
  const writes: Uint8Array[] = [];
  const aborted: string[] = [];
  return {
    userId,
    version,
    open: true,
    writes,
    aborted,
    sendBytes: (bytes) => writes.push(bytes),
    abort: (reason) => aborted.push(reason),
  };
}

/** A stored chat message of room `roomId` (written at time 0). */
export function chatMessage(id: number, roomId = 1): ChatMessage {
  return {
    id,
    roomId,
    content: `m${id}`,
    writer: 'w',
    writer_id: 'u',
    profile_image_path: null,
    role: 'student',
    createdDate: new Date(0).toISOString(),
  };
}

/** One turn of the event loop: what the delivery queued in the last one is written. */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The frames in what a subscriber was sent. */
export function framesOf(writes: Uint8Array[]) {
  const parser = new StompParser();
  return writes
    .flatMap((bytes) => parser.push(bytes))
    .flatMap((event) => (event.type === 'frame' ? [event.frame] : []));
}
