import { describe, expect, it } from 'vitest';
import { BitrateMeter } from './bitrate-meter.ts';
import { DownlinkEstimator, DOWNLINK_START_BPS } from './downlink-estimator.ts';
import { REMB_MAX_BPS, REMB_START_BPS, RembEstimator } from './remb-estimator.ts';

describe('BitrateMeter', () => {
  it('measures the last window only', () => {
    const meter = new BitrateMeter(1000);
    for (let t = 0; t < 1000; t += 10) meter.add(125, t); // 100 packets of 1000 bits in one second
    expect(meter.bps(999)).toBe(100_000);
    expect(meter.bps(2500)).toBe(0);
  });

  it('counts a rate that changes as it goes, its ring reused second after second', () => {
    const meter = new BitrateMeter(1000);
    for (let t = 0; t < 5000; t += 10) meter.add(t < 4000 ? 125 : 250, t); // 100 kbit/s, then 200 for 1 s
    expect(meter.bps(4999)).toBe(200_000);
    for (let t = 5000; t < 5500; t += 10) meter.add(125, t); // half a second at 100 kbit/s again
    expect(meter.bps(5499)).toBe(150_000);
    expect(meter.bps(5999)).toBe(50_000);
  });
});

describe('RembEstimator', () => {
  it('grows without loss up to the cap, and towards 1.5x what arrives', () => {
    const remb = new RembEstimator();
    expect(remb.update(3_000_000, 0)).toBe(4_500_000);
    for (let i = 0; i < 20; i += 1) remb.update(100_000, 0);
    expect(remb.bps).toBe(REMB_MAX_BPS);
  });

  it('falls below what arrives under heavy loss, and holds in between', () => {
    const remb = new RembEstimator();
    expect(remb.update(1_000_000, 0.2)).toBe(900_000);
    expect(remb.update(1_000_000, 0.05)).toBe(900_000);
    expect(remb.update(600_000, 0)).toBe(972_000);
    expect(REMB_START_BPS).toBeGreaterThan(1_300_000); // room for all three layers from the start
  });
});

describe('DownlinkEstimator', () => {
  it('follows receiver-report loss', () => {
    const down = new DownlinkEstimator();
    expect(down.onLoss(0.3)).toBeCloseTo(DOWNLINK_START_BPS * 0.85);
    expect(down.onLoss(0.05)).toBeCloseTo(DOWNLINK_START_BPS * 0.85);
    expect(down.onLoss(0)).toBeCloseTo(DOWNLINK_START_BPS * 0.85 * 1.05);
  });

  it('takes a REMB only when it is clearly below what is sent', () => {
    const down = new DownlinkEstimator();
    expect(down.onRemb(200_000, 220_000)).toBe(DOWNLINK_START_BPS);
    expect(down.onRemb(200_000, 600_000)).toBe(200_000);
  });
});
