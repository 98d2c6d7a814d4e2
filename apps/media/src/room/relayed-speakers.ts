import type { ProducerInfo, SpeakingView } from '@sea/contract/live';
import type { Producer } from '../rtc/producer.ts';

/** What the room does as relayed speakers come and go (children never import their parent). */
export type RelayedSpeakerHooks = {
  /** A speaker's microphone is published here: the students must hear `newProducer`. */
  streamAdded(info: ProducerInfo): void;
  /** It closed (the speaker stopped at the origin, or the relay ended): `producerClosed`. */
  streamClosed(info: ProducerInfo): void;
  /** Who speaks at the origin changed: everybody must hear `speakerChanged`. */
  changed(): void;
};

/**
 * An edge room's speakers, relayed from the class's origin (relay/origin-pull.ts): each speaking student's
 * microphone as a producer of its own (two speakers are two `speakerAudio` streams), and who speaks there as
 * the origin tells it, its producer ids the edge's own. The edge's own students the origin seats are the edge
 * room's own seats (their microphones published here and sent up by relay/edge-speakers.ts).
 */
export class RelayedSpeakers {
  private readonly producers = new Set<Producer>();
  private origin: SpeakingView | null = null;
  private readonly hooks: RelayedSpeakerHooks;

  constructor(hooks: RelayedSpeakerHooks) {
    this.hooks = hooks;
  }

  /** Takes a speaker's microphone published by the relay; it leaves when it closes. */
  add(producer: Producer): void {
    const info = { producerId: producer.id, producerKind: producer.kind };
    this.producers.add(producer);
    producer.closed.subscribe(() => {
      if (this.producers.delete(producer)) this.hooks.streamClosed(info);
    });
    this.hooks.streamAdded(info);
  }

  /** The relayed microphones now. */
  streams(): Producer[] {
    return [...this.producers].filter((producer) => !producer.isClosedNow);
  }

  /**
   * Who speaks at the origin as a student here sees it, given `own`, this room's seats as they see them: the
   * origin's speakers, those seated here with their microphones here, and `own`'s `self`. Null: this room is no
   * edge, its own seats tell.
   */
  viewWith(own: SpeakingView): SpeakingView | null {
    if (!this.origin) return null;
    const here = new Map(own.speakers.map((speaker) => [speaker.userId, speaker]));
    return {
      speakers: this.origin.speakers.map((speaker) => {
        const local = here.get(speaker.userId);
        return local ? { ...speaker, producerId: local.producerId } : speaker;
      }),
      self: own.self,
    };
  }

  /** The origin's speakers changed, or (null) the relay ended. Everybody hears it when it differs. */
  setView(view: SpeakingView | null): void {
    if (JSON.stringify(view) === JSON.stringify(this.origin)) return;
    this.origin = view;
    this.hooks.changed();
  }
}
