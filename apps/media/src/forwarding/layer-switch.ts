import type { Layer } from '@sea/contract/live';

/** What to do with one packet for one student. */
export type SwitchDecision = 'forward' | 'switch' | 'drop';

/**
 * Keyframe-gated layer switching for one student's video. The student keeps receiving the current layer until
 * the first packet of a keyframe of the target layer arrives; that packet is the switch point (the sender then
 * rewrites sequence numbers and timestamps). Switching mid-frame would leave the decoder with references it
 * never got, and the video would freeze.
 */
export class LayerSwitch {
  private currentLayer: Layer | null = null;
  private targetLayer: Layer | null = null;

  /** The layer being forwarded, or null before the first keyframe (or after {@link reset}). */
  get current(): Layer | null {
    return this.currentLayer;
  }

  /** The layer the student should get. */
  get target(): Layer | null {
    return this.targetLayer;
  }

  /** Whether a keyframe of the target layer is awaited (someone is waiting: keep requesting one). */
  get waitingForKeyframe(): boolean {
    return this.targetLayer !== null && this.targetLayer !== this.currentLayer;
  }

  /** Asks for another layer; takes effect at its next keyframe. */
  setTarget(layer: Layer | null): void {
    this.targetLayer = layer;
  }

  /** Forgets the current layer (after a pause): forwarding restarts at the next keyframe of the target. */
  reset(): void {
    this.currentLayer = null;
  }

  /** Decides for a packet of `layer`; `keyframeStart` tells whether it begins a keyframe. */
  onPacket(layer: Layer, keyframeStart: boolean): SwitchDecision {
    if (layer === this.targetLayer && layer !== this.currentLayer && keyframeStart) {
      this.currentLayer = layer;
      return 'switch';
    }
    return layer === this.currentLayer ? 'forward' : 'drop';
  }
}
