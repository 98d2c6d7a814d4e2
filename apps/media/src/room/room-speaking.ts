import { MAX_SPEAKERS, SPEAKER_RETURN_MS, type ProducerInfo, type SpeakingView } from '@sea/contract/live';
import { conflict } from '../live-error.ts';
import type { Peer } from '../peer.ts';
import type { Producer } from '../rtc/producer.ts';
import { inviteOnEdge } from './edge-students.ts';
import { RelayedSpeakers } from './relayed-speakers.ts';
import type { RoomAudience } from './room-audience.ts';
import { SpeakerSeats } from './speaker-seats.ts';

const NOT_HERE = '그 수강생은 지금 이 강의실에 없어요.';

/**
 * A room's speaking, wired to its audience: its own speaker seats and, on an edge room, the speakers of the
 * origin's room relayed. While the room is open, the teacher, every student and every edge's relay hear who is
 * invited or speaking (each from their own view, {@link view}), and a speaker's microphone coming and going is
 * announced to all of them but the speaker (the relays pull it to their edges).
 */
export class RoomSpeaking {
  /** Students invited or speaking, and their microphones (relayed to edges, not recorded). */
  readonly seats: SpeakerSeats;
  /** On an edge room: the speakers of the origin's room, relayed (see {@link relay}). */
  private readonly relayed: RelayedSpeakers;
  private readonly audience: RoomAudience;
  private readonly isClosed: () => boolean;
  /** Students whose seat ended with their connection, until when they are invited again on return. */
  private readonly returning = new Map<string, number>();

  constructor(audience: RoomAudience, isClosed: () => boolean) {
    this.audience = audience;
    this.isClosed = isClosed;
    const changed = () => {
      if (!isClosed()) this.tellSpeakers();
    };
    const announce = (event: 'newProducer' | 'producerClosed', info: ProducerInfo, owner: Peer | null) => {
      if (!isClosed()) this.announce(event, info, owner);
    };
    this.seats = new SpeakerSeats({
      changed,
      streamAdded: (producer, owner) => announce('newProducer', infoOf(producer), owner),
      streamClosed: (producer, owner) => announce('producerClosed', infoOf(producer), owner),
    });
    this.relayed = new RelayedSpeakers({
      changed,
      streamAdded: (info) => announce('newProducer', info, null),
      streamClosed: (info) => announce('producerClosed', info, null),
    });
  }

  /** Who is invited or speaking, as the student `userId` (the teacher, a relay: null) sees it. */
  view(userId: string | null): SpeakingView {
    const own = this.seats.view(userId);
    return this.relayed.viewWith(own) ?? own;
  }

  /**
   * The speakers' microphones `peer` hears: the teacher the seated speakers', a student every other speaker's
   * (on an edge, the relayed ones too).
   */
  streamsFor(peer: Peer): Producer[] {
    if (peer === this.audience.teacher) return this.seats.streams();
    return [...this.seats.streams(peer), ...this.relayed.streams()];
  }

  /** Invites a student of this room, or of an edge pulling it, to speak (see {@link SpeakerSeats}). */
  invite(userId: string): void {
    const student = this.audience.students.get(userId);
    if (this.isClosed()) throw conflict(NOT_HERE);
    if (student) this.seats.invite(student);
    else if (!inviteOnEdge(this.audience, this.seats, userId)) throw conflict(NOT_HERE);
  }

  /**
   * Ends the seat of a student whose connection went (lost, or replaced by their reconnection), keeping their
   * place for {@link SPEAKER_RETURN_MS} (see {@link welcomeBack}).
   */
  endForReturn(peer: Peer): void {
    const userId = peer.info.userId;
    if (!this.seats.holds(peer)) return;
    this.seats.end(userId);
    const now = Date.now();
    for (const [other, until] of this.returning) if (until <= now) this.returning.delete(other);
    this.returning.set(userId, now + SPEAKER_RETURN_MS);
  }

  /**
   * A new room whose teacher's client saw these students invited or speaking in the room that was lost (the
   * media service died): their places are kept for {@link SPEAKER_RETURN_MS} from now, as if their connections
   * had dropped here (see {@link welcomeBack}). Only the teacher's `startRoom` names them.
   */
  keepPlaces(userIds: readonly string[]): void {
    const until = Date.now() + SPEAKER_RETURN_MS;
    for (const userId of userIds.slice(0, MAX_SPEAKERS)) this.returning.set(userId, until);
  }

  /**
   * A student entered: when their seat ended with their connection within {@link SPEAKER_RETURN_MS}, they are
   * invited again (their client, which was speaking, accepts by itself). A seat taken meanwhile wins.
   */
  welcomeBack(peer: Peer): void {
    const userId = peer.info.userId;
    const until = this.returning.get(userId);
    if (until === undefined) return;
    this.returning.delete(userId);
    if (until <= Date.now() || this.isClosed()) return;
    try {
      this.seats.invite(peer);
    } catch {
      // Every seat is taken (the teacher invited others meanwhile): the student raises a hand again.
    }
  }

  /** Takes a speaker's microphone the edge's relay publishes (an edge room). */
  addRelayed(producer: Producer): void {
    this.relayed.add(producer);
  }

  /** An edge room: who speaks in the origin's room, or null once the relay ended; everybody here hears it. */
  relay(view: SpeakingView | null): void {
    if (!this.isClosed()) this.relayed.setView(view);
  }

  /** Tells the teacher, every student (each their own view) and every relay who speaks now. */
  private tellSpeakers(): void {
    const { teacher, students, relays } = this.audience;
    teacher?.notify('speakerChanged', this.view(null));
    for (const [userId, student] of students) student.notify('speakerChanged', this.view(userId));
    for (const relay of relays.keys()) relay.notify('speakerChanged', this.view(null));
  }

  /** Tells everybody but `owner` (the speaker themself) that a speaker's microphone came or went. */
  private announce(event: 'newProducer' | 'producerClosed', info: ProducerInfo, owner: Peer | null): void {
    this.audience.broadcast((peer) => {
      if (peer !== owner) peer.notify(event, info);
    });
  }
}

function infoOf(producer: Producer): ProducerInfo {
  return { producerId: producer.id, producerKind: producer.kind };
}
