import { SPEAKER_KIND, type ConsumerInfo, type SpeakingView } from '@sea/contract/live';

/**
 * A pulled stream's slot on the edge: the teacher's by kind (one stream each, the webcam's layers together),
 * every speaker's microphone one of its own (two speakers are two `speakerAudio` streams).
 */
export function slotOf(consumer: ConsumerInfo): string {
  return consumer.producerKind === SPEAKER_KIND ? speakerSlot(consumer.producerId) : consumer.producerKind;
}

function speakerSlot(originProducerId: string): string {
  return `${SPEAKER_KIND}:${originProducerId}`;
}

/**
 * Who speaks at the origin, as the edge's students see it: each speaker's producer id the edge's own
 * (`edgeProducerOf` a slot; null until the edge publishes that microphone), and `self` none, since nobody on
 * an edge is invited.
 */
export function edgeSpeakingView(
  origin: SpeakingView,
  edgeProducerOf: (slot: string) => string | null,
): SpeakingView {
  return {
    speakers: origin.speakers.map((speaker) => ({
      ...speaker,
      producerId: speaker.producerId === null ? null : edgeProducerOf(speakerSlot(speaker.producerId)),
    })),
    self: 'none',
  };
}
