import { MAX_SPEAKERS, SPEAKER_KIND, type SpeakingView, type StreamKind } from '@sea/contract/live';
import { conflict, forbidden } from '../live-error.ts';
import type { Peer } from '../peer.ts';
import type { Producer } from '../rtc/producer.ts';
import { Signal } from '../signal.ts';

/**
 * A student invited to speak, or speaking, and their microphone's stream once published. `holder` is the
 * connection the seat is held through: the student's own peer, or (a student on an edge node) that edge's
 * relay, which publishes the student's microphone for them (`remote`).
 */
type Seat = {
  holder: Peer;
  remote: boolean;
  nickname: string;
  state: 'invited' | 'speaking';
  producer: Producer | null;
  release: () => void;
};

/** An edge room's way to the origin, which holds its students' seats (relay/edge-speakers.ts). */
export type SeatsUpstream = {
  /** Asks the origin to let the invited student `userId` speak; rejects (a `LiveError`) when it refuses. */
  accept(userId: string): Promise<void>;
};

/** What the room does when the seats change (children never import their parent). */
export type SeatHooks = {
  /** Who is invited or speaking changed: everybody must hear `speakerChanged`. */
  changed(): void;
  /**
   * A speaker's microphone is published: everybody but its owner (the speaker, or the relay of the speaker's
   * edge) must hear `newProducer`.
   */
  streamAdded(producer: Producer, owner: Peer): void;
  /** A speaker's microphone closed (speaking ended, or it was replaced): `producerClosed`. */
  streamClosed(producer: Producer, owner: Peer): void;
};

const notInvited = () => forbidden('강사의 발언 요청을 받지 않았어요.');
const notSpeaking = () => forbidden('강사의 발언 요청을 수락한 뒤에만 소리를 보낼 수 있어요.');
const fullRefusal = () =>
  conflict(
    `동시에 발언할 수 있는 수강생은 ${MAX_SPEAKERS}명까지예요. 먼저 다른 수강생의 발언을 끝내 주세요.`,
  );

/**
 * The room's speaking seats, at most {@link MAX_SPEAKERS}: a student enters one when the teacher invites them,
 * speaks once they accept, and may publish exactly one stream then, their microphone (`speakerAudio`). Ending
 * a seat (by the teacher, by the student, or by the student's peer closing) closes that student's publishing
 * transport, so their stream ends with it. Keyed by user id, in invitation order. A student on an edge node
 * holds their seat through that edge's relay (see {@link inviteThrough}): their microphone is the relay's
 * stream, and ending the seat closes that stream only (the relay may carry another speaker's).
 */
export class SpeakerSeats {
  /** Emitted after {@link SeatHooks.changed}: an edge's relay follows its own students' seats with it. */
  readonly changed = new Signal();
  /**
   * On an edge room while its relay runs: the origin, which seats this room's students; a student's
   * acceptance goes there first (speaking-handlers.ts).
   */
  upstream: SeatsUpstream | null = null;
  private readonly seats = new Map<string, Seat>();
  private readonly hooks: SeatHooks;

  constructor(hooks: SeatHooks) {
    this.hooks = hooks;
  }

  /** Invites a student; idempotent for one already seated. Refused when every seat is taken. */
  invite(peer: Peer): void {
    const userId = peer.info.userId;
    if (!this.vacate(userId, peer)) return;
    const release = peer.producerAdded.subscribe((producer) => this.produced(peer, userId, producer));
    this.seats.set(userId, {
      holder: peer,
      remote: false,
      nickname: peer.info.nickname,
      state: 'invited',
      producer: null,
      release,
    });
    this.changedNow();
  }

  /**
   * Invites a student of an edge node, seated through its `relay` (which lists them); idempotent like
   * {@link invite}. Their microphone comes from the relay ({@link producedThrough}).
   */
  inviteThrough(relay: Peer, userId: string, nickname: string): void {
    if (!this.vacate(userId, relay)) return;
    this.seats.set(userId, {
      holder: relay,
      remote: true,
      nickname,
      state: 'invited',
      producer: null,
      release: () => {},
    });
    this.changedNow();
  }

  /**
   * The invited student accepts (`holder`: their peer, or the relay they are seated through): they may publish
   * their microphone now.
   */
  accept(holder: Peer, userId = holder.info.userId): void {
    const seat = this.seats.get(userId);
    if (seat?.holder !== holder) throw notInvited();
    if (seat.state === 'speaking') return;
    seat.state = 'speaking';
    this.changedNow();
  }

  /**
   * Refuses a stream `holder` may not publish for `userId`: anything while not speaking, and any kind but
   * their microphone.
   */
  checkProduce(holder: Peer, kind: StreamKind, userId = holder.info.userId): void {
    if (!this.isSpeaking(holder, userId)) throw notSpeaking();
    if (kind !== SPEAKER_KIND) throw forbidden('수강생은 발언할 때 마이크 소리만 보낼 수 있어요.');
  }

  /** Whether `holder` holds `userId`'s seat (their own, by default) and they have accepted. */
  isSpeaking(holder: Peer, userId = holder.info.userId): boolean {
    const seat = this.seats.get(userId);
    return seat?.holder === holder && seat.state === 'speaking';
  }

  /** Whether `holder` holds `userId`'s seat (their own, by default), invited or speaking. */
  holds(holder: Peer, userId = holder.info.userId): boolean {
    return this.seats.get(userId)?.holder === holder;
  }

  /** Whether a speaking student's seat is held through `relay` (it may publish then). */
  speaksThrough(relay: Peer): boolean {
    for (const seat of this.seats.values())
      if (seat.holder === relay && seat.state === 'speaking') return true;
    return false;
  }

  /** A relay published the microphone of `userId`, seated through it and speaking (else it is closed). */
  producedThrough(relay: Peer, userId: string, producer: Producer): void {
    this.produced(relay, userId, producer);
  }

  /** The microphone `userId` publishes now, if any. */
  producerOf(userId: string): Producer | null {
    return this.seats.get(userId)?.producer ?? null;
  }

  /** Ends the seats held through `relay`, but those of the users in `keep` (the relay's students now). */
  endThrough(relay: Peer, keep: ReadonlySet<string> = new Set()): void {
    for (const [userId, seat] of [...this.seats]) {
      if (seat.holder === relay && !keep.has(userId)) this.end(userId);
    }
  }

  /** Ends one student's seat (their stream closes); false when they held none. */
  end(userId: string): boolean {
    const seat = this.seats.get(userId);
    if (!seat) return false;
    this.seats.delete(userId);
    seat.release();
    // The student's publishing connection exists only for speaking: closing it ends the stream for everybody.
    // A relay's carries the other speakers of its edge: only this one's stream closes.
    if (!seat.remote) seat.holder.closePublishing();
    seat.producer?.close();
    this.changedNow();
    return true;
  }

  /** Ends every seat. */
  endAll(): void {
    for (const userId of [...this.seats.keys()]) this.end(userId);
  }

  /** The speakers' published microphones, but those held through `except` (a speaker's own, an edge's). */
  streams(except?: Peer): Producer[] {
    const out: Producer[] = [];
    for (const seat of this.seats.values()) {
      if (seat.producer && seat.holder !== except && !seat.producer.isClosedNow) out.push(seat.producer);
    }
    return out;
  }

  /** Who is invited or speaking, as the student `userId` sees it (the teacher: none). */
  view(userId: string | null): SpeakingView {
    const speakers = [...this.seats.entries()].map(([id, seat]) => ({
      userId: id,
      nickname: seat.nickname,
      state: seat.state,
      producerId: seat.producer?.id ?? null,
    }));
    const own = userId === null ? undefined : this.seats.get(userId);
    return { speakers, self: own ? own.state : 'none' };
  }

  /**
   * Makes room for `userId` held through `holder`: false when they hold the seat already (nothing to do), else
   * an earlier seat of theirs (another connection) ends. Refused when every seat is taken.
   */
  private vacate(userId: string, holder: Peer): boolean {
    const seat = this.seats.get(userId);
    if (seat?.holder === holder) return false;
    if (seat) this.end(userId);
    if (this.seats.size >= MAX_SPEAKERS) throw fullRefusal();
    return true;
  }

  private changedNow(): void {
    this.hooks.changed();
    this.changed.emit();
  }

  /** A seated student's microphone was published (the produce handler checked it first). */
  private produced(holder: Peer, userId: string, producer: Producer): void {
    const seat = this.seats.get(userId);
    if (seat?.holder !== holder || seat.state !== 'speaking' || producer.kind !== SPEAKER_KIND) {
      producer.close();
      return;
    }
    const previous = seat.producer;
    seat.producer = producer;
    producer.closed.subscribe(() => {
      if (seat.producer !== producer) return;
      seat.producer = null;
      this.hooks.streamClosed(producer, holder);
      if (this.seats.get(userId) === seat) this.changedNow();
    });
    // A re-publish replaces the stream: its listeners hear the old one close, then the new one come.
    if (previous) this.hooks.streamClosed(previous, holder);
    previous?.close();
    this.hooks.streamAdded(producer, holder);
    this.changedNow();
  }
}
