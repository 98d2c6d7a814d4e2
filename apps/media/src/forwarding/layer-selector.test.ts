import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LAYERS, PREFERRED_LAYERS, type Layer } from '@sea/contract/live';
import { LAYER_NEED_BPS, selectLayer } from './layer-selector.ts';

const all = ['q', 'h', 'f'] as const;

describe('selectLayer', () => {
  it.each([
    [100_000, null, 'q'],
    [450_000, null, 'q'],
    [500_000, null, 'h'],
    [1_300_000, null, 'h'],
    [1_370_000, 'h', 'h'],
    [1_380_000, 'f', 'f'],
    [2_000_000, null, 'f'],
    [900_000, 'f', 'f'], // stays: 900k >= 0.8 x 1.1M
    [850_000, 'f', 'h'],
    [330_000, 'h', 'h'],
    [310_000, 'h', 'q'],
  ] as const)('auto at %i bit/s from %s gives %s', (estimateBps, current, expected) => {
    expect(selectLayer({ estimateBps, otherStreamsBps: 0, current, preferred: 'auto', available: all })).toBe(
      expected,
    );
    // The same choice when the student's other streams use more of a larger estimate.
    expect(
      selectLayer({
        estimateBps: estimateBps + 540_000,
        otherStreamsBps: 540_000,
        current,
        preferred: 'auto',
        available: all,
      }),
    ).toBe(expected);
  });

  it.each([
    // estimate, what the screen and audio use, current layer → layer
    [1_500_000, 0, null, 'f'],
    [1_500_000, 100_000, null, 'f'], // both audio streams alone leave room for f
    [1_500_000, 540_000, null, 'h'], // with the screen share, f no longer fits
    [1_400_000, 540_000, 'f', 'h'], // nor does staying on it (860k < 0.8 x 1.1M)
    [1_500_000, 1_200_000, 'h', 'q'],
    [800_000, 540_000, null, 'q'],
  ] as const)(
    'auto at %i bit/s, %i of it for the other streams, from %s gives %s',
    (estimateBps, otherStreamsBps, current, expected) => {
      expect(selectLayer({ estimateBps, otherStreamsBps, current, preferred: 'auto', available: all })).toBe(
        expected,
      );
    },
  );

  it('honours a fixed preference whatever the bandwidth', () => {
    expect(
      selectLayer({ estimateBps: 10_000, otherStreamsBps: 0, current: 'q', preferred: 'f', available: all }),
    ).toBe('f');
    expect(
      selectLayer({ estimateBps: 9e9, otherStreamsBps: 0, current: 'f', preferred: 'q', available: all }),
    ).toBe('q');
  });

  it('falls back to the nearest lower arriving layer, else the lowest', () => {
    const fallbacks = [
      // preferred, arriving layers → layer
      ['f', ['q', 'h'], 'h'],
      ['q', ['h', 'f'], 'h'],
      ['auto', ['q'], 'q'],
    ] as const;
    for (const [preferred, available, layer] of fallbacks) {
      expect(selectLayer({ estimateBps: 9e9, otherStreamsBps: 0, current: null, preferred, available })).toBe(
        layer,
      );
    }
  });

  it('answers null when no layer arrives', () => {
    expect(
      selectLayer({ estimateBps: 9e9, otherStreamsBps: 0, current: 'h', preferred: 'auto', available: [] }),
    ).toBeNull();
  });

  it('always picks an arriving layer, and never flips back at the same estimate (hysteresis)', () => {
    const layer = fc.constantFrom<Layer>(...LAYERS);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.integer({ min: 0, max: 2_000_000 }),
        fc.option(layer, { nil: null }),
        fc.constantFrom(...PREFERRED_LAYERS),
        fc.subarray([...LAYERS], { minLength: 1 }),
        (estimateBps, otherStreamsBps, current, preferred, available) => {
          const first = selectLayer({ estimateBps, otherStreamsBps, current, preferred, available });
          expect(first !== null && available.includes(first)).toBe(true);
          const second = selectLayer({ estimateBps, otherStreamsBps, current: first, preferred, available });
          expect(second).toBe(first);
        },
      ),
    );
  });

  it('needs grow with the layer', () => {
    expect(LAYER_NEED_BPS.q).toBeLessThan(LAYER_NEED_BPS.h);
    expect(LAYER_NEED_BPS.h).toBeLessThan(LAYER_NEED_BPS.f);
  });
});
