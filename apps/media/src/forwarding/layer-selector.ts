import { LAYERS, type Layer, type PreferredLayer } from '@sea/contract/live';

/** Bandwidth a student needs to receive each layer smoothly (the encoding's bitrate plus RTP overhead). */
export const LAYER_NEED_BPS: Record<Layer, number> = { q: 150_000, h: 400_000, f: 1_100_000 };

/** Going up needs this much more than the layer's need; staying needs only this fraction (hysteresis). */
export const UP_MARGIN = 1.25;
export const STAY_MARGIN = 0.8;

export type LayerChoice = {
  /** The student's estimated downstream bandwidth, in bit/s: their whole connection's. */
  estimateBps: number;
  /**
   * What the student's other streams (screen share, both audio streams) use of it, measured, in bit/s: the
   * webcam gets what is left.
   */
  otherStreamsBps: number;
  /** The layer the student receives now, if any. */
  current: Layer | null;
  preferred: PreferredLayer;
  /** Layers currently arriving from the teacher. */
  available: readonly Layer[];
};

/**
 * The layer a student should receive. A fixed preference is honoured when that layer arrives (else the nearest
 * lower one, else the lowest); `auto` picks the highest layer that the bandwidth left beside the student's other
 * streams carries, with hysteresis so an estimate hovering around a threshold does not make the student flip
 * between layers.
 */
export function selectLayer({
  estimateBps,
  otherStreamsBps,
  current,
  preferred,
  available,
}: LayerChoice): Layer | null {
  const arriving = LAYERS.filter((layer) => available.includes(layer));
  const lowest = arriving[0];
  if (lowest === undefined) return null;
  if (preferred !== 'auto') {
    if (arriving.includes(preferred)) return preferred;
    const below = arriving.filter((layer) => LAYERS.indexOf(layer) < LAYERS.indexOf(preferred));
    return below.at(-1) ?? lowest;
  }
  const currentIndex = current === null ? -1 : LAYERS.indexOf(current);
  const fits = (layer: Layer) => {
    const margin = LAYERS.indexOf(layer) <= currentIndex ? STAY_MARGIN : UP_MARGIN;
    return estimateBps - otherStreamsBps >= LAYER_NEED_BPS[layer] * margin;
  };
  return arriving.filter(fits).at(-1) ?? lowest;
}
