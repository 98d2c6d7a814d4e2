import type { ProducerInfo, SpeakingView } from '@sea/contract/live';
import type { Peer } from '../peer.ts';
import type { Producer } from '../rtc/producer.ts';
import { RelayedSpeakers } from './relayed-speakers.ts';
import type { RoomAudience } from './room-audience.ts';
import { SpeakerSeats } from './speaker-seats.ts';

/** Who speaks, as the student `userId` (the teacher and relays: null) sees it. */
type ViewFor = (userId: string | null) => SpeakingView;

/** Tells the teacher, every student (each their own view) and every relay who speaks now. */
function tellSpeakers(audience: RoomAudience, viewFor: ViewFor): void {
  audience.teacher?.notify('speakerChanged', viewFor(null));
  for (const [userId, student] of audience.students) student.notify('speakerChanged', viewFor(userId));
  for (const relay of audience.relays.keys()) relay.notify('speakerChanged', viewFor(null));
}

/** Tells everybody but `owner` (the speaker themself) that a speaker's microphone came or went. */
function announce(
  audience: RoomAudience,
  event: 'newProducer' | 'producerClosed',
  info: ProducerInfo,
  owner: Peer | null,
): void {
  audience.broadcast((peer) => {
    if (peer !== owner) peer.notify(event, info);
  });
}

/**
 * A room's speaking seats, wired to its audience: while the room is open, the teacher, every student and every
 * edge's relay hear who is invited or speaking (each from their own view, from `viewFor`), and a speaker's
 * microphone coming and going is announced to all of them but the speaker (the relays pull it to their edges).
 */
export function roomSpeakerSeats(
  audience: RoomAudience,
  isClosed: () => boolean,
  viewFor: ViewFor,
): SpeakerSeats {
  const info = (producer: Producer): ProducerInfo => ({
    producerId: producer.id,
    producerKind: producer.kind,
  });
  return new SpeakerSeats({
    changed: () => {
      if (!isClosed()) tellSpeakers(audience, viewFor);
    },
    streamAdded: (producer, owner) => {
      if (!isClosed()) announce(audience, 'newProducer', info(producer), owner);
    },
    streamClosed: (producer, owner) => {
      if (!isClosed()) announce(audience, 'producerClosed', info(producer), owner);
    },
  });
}

/**
 * An edge room's speakers relayed from the origin, wired to its audience like {@link roomSpeakerSeats}: the
 * students hear each relayed microphone come and go, and who speaks at the origin.
 */
export function roomRelayedSpeakers(
  audience: RoomAudience,
  isClosed: () => boolean,
  viewFor: ViewFor,
): RelayedSpeakers {
  return new RelayedSpeakers({
    changed: () => {
      if (!isClosed()) tellSpeakers(audience, viewFor);
    },
    streamAdded: (info) => {
      if (!isClosed()) announce(audience, 'newProducer', info, null);
    },
    streamClosed: (info) => {
      if (!isClosed()) announce(audience, 'producerClosed', info, null);
    },
  });
}
