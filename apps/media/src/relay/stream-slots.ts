import { LAYERS, SPEAKER_KIND, type ConsumerInfo, type Layer, type SpeakingView } from '@sea/contract/live';
import type { Producer } from '../rtc/producer.ts';
import type { ProducerTransport } from '../rtc/producer-transport.ts';
import { LAYER_ID_SEPARATOR } from './layer-view.ts';

/**
 * A pulled stream's slot on the edge: the teacher's by kind (one stream each, the webcam's layers together),
 * every speaker's microphone one of its own (two speakers are two `speakerAudio` streams).
 */
export function slotOf(consumer: ConsumerInfo): string {
  return consumer.producerKind === SPEAKER_KIND ? speakerSlot(consumer.producerId) : consumer.producerKind;
}

/**
 * Publishes a slot's stream in the edge's room from the consumers it is pulled with: the webcam's layers from
 * their m-lines (one per layer), else its one m-line.
 */
export function publishSlot(
  transport: ProducerTransport,
  slot: string,
  consumers: ConsumerInfo[],
): Producer | null {
  const layers: Partial<Record<Layer, string>> = {};
  for (const consumer of consumers) {
    const suffix = consumer.producerId.split(LAYER_ID_SEPARATOR).at(-1);
    const layer = LAYERS.find((l) => l === suffix);
    if (layer) layers[layer] = consumer.mid;
  }
  const first = consumers[0];
  if (!first) return null;
  if (Object.keys(layers).length === consumers.length && consumers.length > 1) {
    return transport.produceLayers(first.producerKind, layers);
  }
  return transport.produce(first.producerKind, first.mid, slot);
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
