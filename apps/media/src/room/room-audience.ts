import type { Participant } from '@sea/contract/live';
import type { Peer } from '../peer.ts';

/** An edge's students in a class: their number, their ids and nicknames (an older edge tells fewer). */
export type EdgeStudents = {
  count: number;
  userIds: ReadonlySet<string>;
  nicknames: ReadonlyMap<string, string>;
};

/**
 * Who is in a room, and how they are all told something: its teacher (at most one connection), its students
 * by user id, and the relays of edge nodes pulling the class (see relay/origin-pull.ts) with their own
 * students' number. Relays are told of streams and of the end like students; their students count in the
 * viewer count. The room decides who comes and goes; this only holds them, and what the room listens to on
 * each of them.
 */
export class RoomAudience {
  teacher: Peer | null = null;
  readonly students = new Map<string, Peer>();
  /** Each relay's students as its edge last told: their number, and their ids (an older edge tells none). */
  readonly relays = new Map<Peer, EdgeStudents>();
  /** What the room listens to on each peer, until the peer leaves or is replaced. */
  private readonly listening = new Map<Peer, () => void>();

  /** Listens to `peer` through these subscriptions (each one's unsubscribe) until {@link release}. */
  listen(peer: Peer, ...unsubscribes: (() => void)[]): void {
    this.listening.set(peer, () => unsubscribes.forEach((unsubscribe) => unsubscribe()));
  }

  /** Stops listening to a peer that left or was replaced. */
  release(peer: Peer): void {
    this.listening.get(peer)?.();
    this.listening.delete(peer);
  }

  /** Stops listening to everybody (the room ended). */
  releaseAll(): void {
    for (const release of this.listening.values()) release();
    this.listening.clear();
  }

  /** The relay of the edge where the student with this id is (and what it told of them), if any. */
  edgeOf(userId: string): { relay: Peer; nickname: string | undefined } | null {
    for (const [relay, { userIds, nicknames }] of this.relays) {
      if (userIds.has(userId)) return { relay, nickname: nicknames.get(userId) };
    }
    return null;
  }

  /** Students here and on every edge pulling the class. */
  viewerCount(): number {
    let count = this.students.size;
    for (const edgeStudents of this.relays.values()) count += edgeStudents.count;
    return count;
  }

  /**
   * The students here (in the order they came) and then every edge's (a student on two nodes at once, moving
   * between them, once), with their nicknames; an older edge that told no ids adds nobody.
   */
  participants(): Participant[] {
    const seen = new Map<string, Participant>();
    for (const [userId, peer] of this.students) seen.set(userId, { userId, nickname: peer.info.nickname });
    for (const { userIds, nicknames } of this.relays.values()) {
      for (const userId of userIds) {
        if (!seen.has(userId)) seen.set(userId, { userId, nickname: nicknames.get(userId) ?? '' });
      }
    }
    return [...seen.values()];
  }

  /** Tells the teacher who is in the room now (their participant list). */
  tellParticipants(): void {
    this.teacher?.notify('participants', { students: this.participants() });
  }

  /** Tells the teacher, every student and every relay. */
  broadcast(send: (peer: Peer) => void): void {
    if (this.teacher) send(this.teacher);
    for (const student of this.students.values()) send(student);
    for (const relay of this.relays.keys()) send(relay);
  }

  /** Tells everybody how many students there are, and the teacher who they are. */
  broadcastViewerCount(): void {
    const count = this.viewerCount();
    this.broadcast((peer) => peer.notify('viewerCount', { count }));
    this.tellParticipants();
  }
}
