import type { ChatMessage, RoomRole } from '@sea/contract/chat';
import { CHAT_SEND_DESTINATION } from '@sea/contract/chat';
import { ChatMessages } from '../src/chat/chat-messages.ts';
import type { MessageLog } from '../src/chat/message-log.ts';
import { MemoryFanOut } from '../src/room-bus/memory-fan-out.ts';
import { DEFAULT_SEND_RATE_LIMIT } from '../src/room-bus/register-room-bus.ts';
import { RoomBroker } from '../src/room-bus/room-broker.ts';
import type { RoomAccess } from '../src/room-bus/room-ports.ts';
import { TokenBuckets, type TokenBucketOptions } from '../src/room-bus/token-buckets.ts';
import type { StompFrame } from '../src/stomp/stomp-frame.ts';
import { StompParser } from '../src/stomp/stomp-parser.ts';
import type { StompTransport } from '../src/stomp/stomp-session-options.ts';

/**
 * An in-memory stand-in for the chat's database side, so the protocol can be driven step by step. Tokens are
 * `user-<id>`; members are `<classId>:<userId>` entries. A test may also put messages into `messages` itself,
 * with any id and time (as other server instances would store them).
 */
export class MemoryChat implements RoomAccess, MessageLog {
  readonly members = new Set(['1:alice', '1:bob']);
  /** Members who teach their class (`<classId>:<userId>`); every other member is a student. */
  readonly teachers = new Set<string>();
  readonly messages: ChatMessage[] = [];
  /** Calls of the database that fail from now on (a database outage). */
  failing = false;
  async authenticate(token: string): Promise<string | null> {
    return token.startsWith('user-') ? token.slice(5) : null;
  }
  async roleOf(classId: number, userId: string): Promise<RoomRole | null> {
    const key = `${classId}:${userId}`;
    if (!this.members.has(key)) return null;
    return this.teachers.has(key) ? 'teacher' : 'student';
  }
  async stillMembers(classId: number, userIds: readonly string[]): Promise<Set<string>> {
    this.#check();
    return new Set(userIds.filter((userId) => this.members.has(`${classId}:${userId}`)));
  }
  forgetMemberships(): void {
    // Nothing is cached here.
  }
  async remove(classId: number, messageId: number): Promise<boolean> {
    const index = this.messages.findIndex((m) => m.roomId === classId && m.id === messageId);
    if (index >= 0) this.messages.splice(index, 1);
    return index >= 0;
  }
  async save(input: {
    classId: number;
    userId: string;
    role: RoomRole;
    content: string;
  }): Promise<ChatMessage> {
    const message: ChatMessage = {
      id: this.messages.reduce((max, m) => Math.max(max, m.id), 0) + 1,
      roomId: input.classId,
      content: input.content,
      writer: input.userId,
      writer_id: input.userId,
      profile_image_path: null,
      role: input.role,
      createdDate: new Date().toISOString(),
    };
    this.messages.push(message);
    return message;
  }
  async lastIdBefore(time: Date): Promise<number> {
    this.#check();
    return this.messages
      .filter((m) => Date.parse(m.createdDate) < time.getTime())
      .reduce((max, m) => Math.max(max, m.id), 0);
  }
  async listAfter(classId: number, afterId: number, size: number): Promise<ChatMessage[]> {
    this.#check();
    return this.messages
      .filter((m) => m.roomId === classId && m.id > afterId)
      .sort((a, b) => a.id - b.id)
      .slice(0, size);
  }
  #check(): void {
    if (this.failing) throw new Error('database unavailable');
  }
}

/** A room bus in memory with the chat's messages on `/app/hello`, as the app wires them (protocol tests). */
export function memoryChatBus(
  store: MemoryChat,
  rateLimit: TokenBucketOptions = DEFAULT_SEND_RATE_LIMIT,
): RoomBroker {
  const bus = new RoomBroker({ access: store, fanOut: (target) => new MemoryFanOut(target) });
  const limiter = new TokenBuckets(rateLimit);
  bus.handle(
    CHAT_SEND_DESTINATION,
    new ChatMessages({ room: bus, messages: store, limiter, log: () => undefined }),
  );
  return bus;
}

/**
 * Records what a session writes, read as a client of the negotiated version would read it: bytes such a
 * client could not parse are kept in `malformed` (a test asserts it stays empty). Plays the socket's buffer
 * level, and can play a socket whose writes throw.
 */
export class RecordingTransport implements StompTransport {
  readonly frames: StompFrame[] = [];
  readonly malformed: string[] = [];
  heartbeats = 0;
  buffered = 0;
  state: 'open' | 'closed' | 'terminated' = 'open';
  /** A socket whose writes throw (a bug below the session). */
  broken = false;
  readonly #parser = new StompParser();
  send(bytes: Uint8Array): void {
    if (this.broken) throw new Error('socket write failed');
    for (const event of this.#parser.push(bytes)) {
      if (event.type === 'frame') {
        this.frames.push(event.frame);
        const version = event.frame.headers.get('version');
        if (event.frame.command === 'CONNECTED' && version) this.#parser.version = version;
      } else if (event.type === 'heartbeat') this.heartbeats += 1;
      else this.malformed.push(event.message);
    }
  }
  bufferedBytes(): number {
    return this.buffered;
  }
  close(): void {
    this.state = 'closed';
  }
  terminate(): void {
    this.state = 'terminated';
  }
  commands(): string[] {
    return this.frames.map((f) => f.command);
  }
  last(): StompFrame | undefined {
    return this.frames.at(-1);
  }
}
