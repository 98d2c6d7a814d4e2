import {
  SPEAKER_KIND,
  type LiveRequestData,
  type LiveRequestName,
  type LiveRequestPayload,
  type SpeakingView,
} from '@sea/contract/live';
import { conflict } from '../live-error.ts';
import { log } from '../log.ts';
import { ConsumerTransport } from '../rtc/consumer-transport.ts';
import { CoalescedRuns } from './coalesced-runs.ts';
import type { RtcOptions } from '../rtc/peer-connection.ts';
import type { Producer } from '../rtc/producer.ts';
import type { Room } from '../room/room.ts';
import type { SeatsUpstream } from '../room/speaker-seats.ts';

/** A request to the origin on the relay's connection: its answer's `data`, or it rejects. */
export type OriginRequest = <N extends LiveRequestName>(
  name: N,
  payload: LiveRequestPayload<N>,
) => Promise<LiveRequestData<N>>;

/**
 * An edge room's own students speaking in the class, whose seats the origin holds (through this edge's relay):
 * - the origin's seats rule: a student of this edge it lists (its `speakerChanged` to the relay) is invited in
 *   the edge room's own seats, and a seat it no longer lists ends here;
 * - a student's acceptance goes up first (`relayAcceptSpeak`, {@link accept}); only then may they publish their
 *   microphone here, where the edge's other students hear it as at the origin;
 * - each such microphone is sent up: the edge offers it on a connection of its own (a consumer transport, as a
 *   student's) that the origin answers on the relay's publishing connection, and the relay `produce`s it for
 *   that student, so the origin's teacher and students and the other edges hear it (not this edge again: the
 *   origin leaves its own students' voices out of what the relay pulls);
 * - a seat ended here (the student ended or declined, left, or a newer connection replaced theirs) ends at the
 *   origin (`relayEndSpeaking`). When the relay ends, the origin ends the seats itself and the edge here.
 */
export class EdgeSpeakers implements SeatsUpstream {
  private readonly room: Room;
  private readonly request: OriginRequest;
  private readonly rtc: RtcOptions;
  /** The students of this edge the origin seated (their seats here follow the origin's). */
  private readonly seated = new Set<string>();
  /** Each student's microphone sent up, by user id. */
  private readonly sent = new Map<string, Producer>();
  private transport: ConsumerTransport | null = null;
  /** The relay's publishing connection at the origin. */
  private originTransportId: string | null = null;
  /** Several changes in a row cost one renegotiation; a failed one is tried again at the next change. */
  private readonly syncs = new CoalescedRuns(
    () => this.sync(),
    (error) =>
      log.warn({ err: error, classId: this.room.classId }, 'sending a microphone to the origin failed'),
    () => this.isClosed,
  );
  private readonly release: () => void;
  private isClosed = false;

  /** @param rtc the edge's settings towards its origin (full ICE, no STUN or TURN). */
  constructor(room: Room, request: OriginRequest, rtc: RtcOptions) {
    this.room = room;
    this.request = request;
    this.rtc = rtc;
    this.release = room.speaking.changed.subscribe(() => this.changedHere());
  }

  /** Asks the origin to let the invited student `userId` speak. */
  async accept(userId: string): Promise<void> {
    try {
      await this.request('relayAcceptSpeak', { userId });
    } catch (error) {
      log.info({ err: error, classId: this.room.classId, userId }, 'the origin refused an acceptance');
      throw conflict('발언 수락을 강의 서버에 전하지 못했어요. 강사의 초대가 끝났을 수 있어요.');
    }
  }

  /** The origin's seats, as the relay heard them: this edge's students among them are seated here too. */
  follow(view: SpeakingView): void {
    if (this.isClosed) return;
    const listed = new Set(view.speakers.map((speaker) => speaker.userId));
    for (const userId of [...this.seated]) {
      if (listed.has(userId)) continue;
      this.seated.delete(userId); // ended at the origin: nothing to tell it
      this.room.speaking.end(userId);
    }
    for (const userId of listed) {
      const student = this.room.student(userId);
      if (!student || this.room.speaking.holds(student)) continue;
      // Invited only: speaking here waits for the student's own acceptance, which the origin takes first.
      this.seated.add(userId);
      try {
        this.room.speaking.invite(student);
      } catch (error) {
        this.seated.delete(userId);
        log.warn({ err: error, classId: this.room.classId, userId }, 'seating an invited student failed');
      }
    }
  }

  /** Ends every seat here (the relay ended: the origin ends its own). Idempotent. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.release();
    const seated = [...this.seated];
    this.seated.clear();
    for (const userId of seated) this.room.speaking.end(userId);
    this.transport?.close();
    this.transport = null;
  }

  /** The edge room's seats changed: one ended here ends at the origin; a new microphone goes up. */
  private changedHere(): void {
    if (this.isClosed) return;
    const here = new Set(this.room.speaking.view(null).speakers.map((speaker) => speaker.userId));
    for (const userId of [...this.seated]) {
      if (here.has(userId)) continue;
      this.seated.delete(userId);
      this.request('relayEndSpeaking', { userId }).catch((error: unknown) => {
        // The relay's connection is gone then, and the origin ends its seats with it.
        if (!this.isClosed)
          log.warn({ err: error, classId: this.room.classId, userId }, 'ending a seat failed');
      });
    }
    this.syncs.schedule();
  }

  /** Sends up every seated student's microphone not sent yet. */
  private async sync(): Promise<void> {
    const wanted = new Map<string, Producer>();
    for (const userId of this.seated) {
      const producer = this.room.speaking.producerOf(userId);
      if (producer && !producer.isClosedNow) wanted.set(userId, producer);
    }
    for (const [userId, producer] of this.sent) if (wanted.get(userId) !== producer) this.sent.delete(userId);
    const fresh = [...wanted].filter(([userId, producer]) => this.sent.get(userId) !== producer);
    if (fresh.length === 0 || this.isClosed) return;
    this.transport ??= new ConsumerTransport(this.rtc);
    const transport = this.transport;
    this.originTransportId ??= (await this.request('createProducerTransport', {})).transportId;
    const transportId = this.originTransportId;
    const offer = await transport.consume([...wanted.values()]);
    const { sdp } = await this.request('connectProducerTransport', { transportId, sdp: offer.sdp });
    await transport.connect(sdp);
    for (const [userId, producer] of fresh) {
      const consumer = offer.consumers.find((c) => c.producerId === producer.id);
      if (!consumer || producer.isClosedNow) continue;
      await transport.resume(consumer.consumerId);
      await this.request('produce', { transportId, producerKind: SPEAKER_KIND, mid: consumer.mid, userId });
      this.sent.set(userId, producer);
    }
  }
}
