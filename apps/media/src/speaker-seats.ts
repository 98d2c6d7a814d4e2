import { MAX_SPEAKERS, SPEAKER_KIND, type SpeakingView, type StreamKind } from '@sea/contract/live';
import { conflict, forbidden } from './live-error.ts';
import type { Peer } from './peer.ts';
import type { Producer } from './rtc/producer.ts';

/** A student invited to speak, or speaking, and their microphone's stream once published. */
type Seat = { peer: Peer; state: 'invited' | 'speaking'; producer: Producer | null; release: () => void };

/** What the room does when the seats change (children never import their parent). */
export type SeatHooks = {
  /** Who is invited or speaking changed: everybody must hear `speakerChanged`. */
  changed(): void;
  /** A speaker's microphone is published: everybody but its owner must hear `newProducer`. */
  streamAdded(producer: Producer, owner: Peer): void;
  /** A speaker's microphone closed (speaking ended, or it was replaced): `producerClosed`. */
  streamClosed(producer: Producer, owner: Peer): void;
};

const fullRefusal = () =>
  conflict(
    `동시에 발언할 수 있는 수강생은 ${MAX_SPEAKERS}명까지예요. 먼저 다른 수강생의 발언을 끝내 주세요.`,
  );

/**
 * The room's speaking seats, at most {@link MAX_SPEAKERS}: a student enters one when the teacher invites them,
 * speaks once they accept, and may publish exactly one stream then, their microphone (`speakerAudio`). Ending
 * a seat (by the teacher, by the student, or by the student's peer closing) closes that student's publishing
 * transport, so their stream ends with it. Keyed by user id, in invitation order.
 */
export class SpeakerSeats {
  private readonly seats = new Map<string, Seat>();
  private readonly hooks: SeatHooks;

  constructor(hooks: SeatHooks) {
    this.hooks = hooks;
  }

  /** Invites a student; idempotent for one already seated. Refused when every seat is taken. */
  invite(peer: Peer): void {
    const seat = this.seats.get(peer.info.userId);
    if (seat?.peer === peer) return;
    if (seat) this.end(peer.info.userId);
    if (this.seats.size >= MAX_SPEAKERS) throw fullRefusal();
    const release = peer.producerAdded.subscribe((producer) => this.produced(peer, producer));
    this.seats.set(peer.info.userId, { peer, state: 'invited', producer: null, release });
    this.hooks.changed();
  }

  /** The invited student accepts: they may publish their microphone now. */
  accept(peer: Peer): void {
    const seat = this.seats.get(peer.info.userId);
    if (seat?.peer !== peer) throw forbidden('강사의 발언 요청을 받지 않았어요.');
    if (seat.state === 'speaking') return;
    seat.state = 'speaking';
    this.hooks.changed();
  }

  /**
   * Refuses a stream `peer` (a student) may not publish: anything while not speaking, and any kind but
   * their microphone.
   */
  checkProduce(peer: Peer, kind: StreamKind): void {
    if (!this.isSpeaking(peer)) throw forbidden('강사의 발언 요청을 수락한 뒤에만 소리를 보낼 수 있어요.');
    if (kind !== SPEAKER_KIND) throw forbidden('수강생은 발언할 때 마이크 소리만 보낼 수 있어요.');
  }

  /** Whether `peer` holds a seat and has accepted. */
  isSpeaking(peer: Peer): boolean {
    const seat = this.seats.get(peer.info.userId);
    return seat?.peer === peer && seat.state === 'speaking';
  }

  /** Whether this peer holds a seat (invited or speaking). */
  holds(peer: Peer): boolean {
    return this.seats.get(peer.info.userId)?.peer === peer;
  }

  /** Ends one student's seat (their stream closes); false when they held none. */
  end(userId: string): boolean {
    const seat = this.seats.get(userId);
    if (!seat) return false;
    this.seats.delete(userId);
    seat.release();
    // The student's publishing connection exists only for speaking: closing it ends the stream for everybody.
    seat.peer.closePublishing();
    seat.producer?.close();
    this.hooks.changed();
    return true;
  }

  /** Ends every seat. */
  endAll(): void {
    for (const userId of [...this.seats.keys()]) this.end(userId);
  }

  /** The speakers' published microphones, but `except`'s own. */
  streams(except?: Peer): Producer[] {
    const out: Producer[] = [];
    for (const seat of this.seats.values()) {
      if (seat.producer && seat.peer !== except && !seat.producer.isClosedNow) out.push(seat.producer);
    }
    return out;
  }

  /** Who is invited or speaking, as the student `userId` sees it (the teacher: none). */
  view(userId: string | null): SpeakingView {
    const speakers = [...this.seats.entries()].map(([id, seat]) => ({
      userId: id,
      nickname: seat.peer.info.nickname,
      state: seat.state,
      producerId: seat.producer?.id ?? null,
    }));
    const own = userId === null ? undefined : this.seats.get(userId);
    return { speakers, self: own ? own.state : 'none' };
  }

  /** A seated student's publishing transport made a stream (the produce handler checked it first). */
  private produced(peer: Peer, producer: Producer): void {
    const seat = this.seats.get(peer.info.userId);
    if (seat?.peer !== peer || seat.state !== 'speaking' || producer.kind !== SPEAKER_KIND) {
      producer.close();
      return;
    }
    const previous = seat.producer;
    seat.producer = producer;
    producer.closed.subscribe(() => {
      if (seat.producer !== producer) return;
      seat.producer = null;
      this.hooks.streamClosed(producer, peer);
      if (this.seats.get(peer.info.userId) === seat) this.hooks.changed();
    });
    // A re-publish replaces the stream: its listeners hear the old one close, then the new one come.
    if (previous) this.hooks.streamClosed(previous, peer);
    previous?.close();
    this.hooks.streamAdded(producer, peer);
    this.hooks.changed();
  }
}
