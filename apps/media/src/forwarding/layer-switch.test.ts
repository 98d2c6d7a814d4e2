import { describe, expect, it } from 'vitest';
import { LayerSwitch } from './layer-switch.ts';

describe('LayerSwitch', () => {
  it('forwards nothing until a keyframe of the target layer starts', () => {
    const gate = new LayerSwitch();
    gate.setTarget('h');
    expect(gate.waitingForKeyframe).toBe(true);
    expect(gate.onPacket('h', false)).toBe('drop');
    expect(gate.onPacket('q', true)).toBe('drop');
    expect(gate.onPacket('h', true)).toBe('switch');
    expect(gate.current).toBe('h');
    expect(gate.waitingForKeyframe).toBe(false);
    expect(gate.onPacket('h', false)).toBe('forward');
    expect(gate.onPacket('f', true)).toBe('drop');
  });

  it('keeps the old layer flowing until the new one has a keyframe', () => {
    const gate = new LayerSwitch();
    gate.setTarget('q');
    gate.onPacket('q', true);
    gate.setTarget('f');
    expect(gate.onPacket('q', false)).toBe('forward');
    expect(gate.onPacket('f', false)).toBe('drop');
    expect(gate.onPacket('q', true)).toBe('forward');
    expect(gate.onPacket('f', true)).toBe('switch');
    expect(gate.onPacket('q', false)).toBe('drop');
  });

  it('cancelling a switch goes on with the current layer without waiting', () => {
    const gate = new LayerSwitch();
    gate.setTarget('h');
    gate.onPacket('h', true);
    gate.setTarget('f');
    gate.setTarget('h');
    expect(gate.waitingForKeyframe).toBe(false);
    expect(gate.onPacket('h', false)).toBe('forward');
  });

  it('after a reset (pause) forwarding restarts only at a keyframe', () => {
    const gate = new LayerSwitch();
    gate.setTarget('h');
    gate.onPacket('h', true);
    gate.reset();
    expect(gate.onPacket('h', false)).toBe('drop');
    expect(gate.onPacket('h', true)).toBe('switch');
  });
});
