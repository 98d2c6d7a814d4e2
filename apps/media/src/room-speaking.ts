import type { Peer } from './peer.ts';
import type { RoomAudience } from './room-audience.ts';
import type { Producer } from './rtc/producer.ts';
import { SpeakerSeats } from './speaker-seats.ts';

/**
 * A room's speaking seats, wired to its audience: while the room is open, the teacher and every student hear
 * who is invited or speaking (each from their own view), and a speaker's microphone coming and going is
 * announced to the teacher and the other students. Relays hear neither: speakers are not relayed to edges.
 */
export function roomSpeakerSeats(audience: RoomAudience, isClosed: () => boolean): SpeakerSeats {
  const announce = (event: 'newProducer' | 'producerClosed', producer: Producer, owner: Peer): void => {
    if (isClosed()) return;
    const info = { producerId: producer.id, producerKind: producer.kind };
    audience.teacher?.notify(event, info);
    for (const student of audience.students.values()) if (student !== owner) student.notify(event, info);
  };
  const seats: SpeakerSeats = new SpeakerSeats({
    changed: () => {
      if (isClosed()) return;
      audience.teacher?.notify('speakerChanged', seats.view(null));
      for (const [userId, student] of audience.students) student.notify('speakerChanged', seats.view(userId));
    },
    streamAdded: (producer, owner) => announce('newProducer', producer, owner),
    streamClosed: (producer, owner) => announce('producerClosed', producer, owner),
  });
  return seats;
}
