import type { Layer, StreamKind } from '@sea/contract/live';
import type { Producer } from '../rtc/producer.ts';
import type { StreamSource } from '../rtc/stream-source.ts';
import { Signal } from '../signal.ts';

/** The separator of a layer view's id: `<producerId>.<layer>` (an edge reads the layer from it). */
export const LAYER_ID_SEPARATOR = '.';

/**
 * One simulcast layer of the teacher's webcam as a single-layer stream, for an edge node's relay: the origin
 * sends each layer on an m-line of its own, so the edge gets every layer and its students switch between them
 * there. Keyframe requests go to that layer of the producer.
 */
export class LayerView implements StreamSource {
  readonly id: string;
  readonly kind: StreamKind;
  readonly media: 'audio' | 'video';
  readonly layer: Layer;
  readonly packet: StreamSource['packet'] = new Signal();
  readonly closed = new Signal();
  readonly simulcast = false;
  private readonly producer: Producer;
  private readonly release: (() => void)[];
  private isClosed = false;

  constructor(producer: Producer, layer: Layer) {
    this.producer = producer;
    this.layer = layer;
    this.id = `${producer.id}${LAYER_ID_SEPARATOR}${layer}`;
    this.kind = producer.kind;
    this.media = producer.media;
    this.release = [
      producer.packet.subscribe((from, packet, keyframeStart) => {
        if (from === layer) this.packet.emit('f', packet, keyframeStart);
      }),
      producer.closed.subscribe(() => this.close()),
    ];
  }

  get isClosedNow(): boolean {
    return this.isClosed || this.producer.isClosedNow;
  }

  availableLayers(nowMs?: number): Layer[] {
    return this.producer.availableLayers(nowMs).includes(this.layer) ? ['f'] : [];
  }

  requestKeyframe(): void {
    this.producer.requestKeyframe(this.layer);
  }

  heldKeyframe(_layer: Layer, nowMs?: number): ReturnType<StreamSource['heldKeyframe']> {
    return this.producer.heldKeyframe(this.layer, nowMs);
  }

  /** Detaches from the producer; consumers hear `closed`. Idempotent. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const release of this.release) release();
    this.closed.emit();
    this.closed.clear();
    this.packet.clear();
  }
}

const views = new WeakMap<Producer, LayerView[]>();

/**
 * What an edge's relay consumes on the origin: each simulcast producer as one {@link LayerView} per layer
 * (the same views on every call, so a renegotiation keeps their m-lines), the others as they are.
 */
export function relaySources(producers: Producer[]): StreamSource[] {
  return producers.flatMap((producer): StreamSource[] => {
    if (!producer.simulcast) return [producer];
    let layered = views.get(producer);
    if (!layered) {
      layered = producer.layers.map((layer) => new LayerView(producer, layer));
      views.set(producer, layered);
    }
    return layered;
  });
}
