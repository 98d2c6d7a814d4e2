import { Counter, Histogram, type Registry } from 'prom-client';
import type { ImageKind } from '../storage/storage.ts';

/**
 * How an image upload ended: `accepted` (read and re-encoded; the route stores it), `too-large` (over 5 MB or
 * 40 megapixels: 413), `unsupported` (not really a JPEG or PNG: 415), `invalid` (the rest of its form was
 * refused: 400).
 */
export type UploadOutcome = 'accepted' | 'too-large' | 'unsupported' | 'invalid';

/** What the form reader tells the metrics about each request that carried an image. */
export type UploadMeter = {
  finished(kind: ImageKind, outcome: UploadOutcome, bytes: number, seconds: number): void;
};

/**
 * Image uploads on `registry`: requests that carried an image by kind (banner, avatar) and outcome, the bytes
 * of the accepted images as sent, and the time from the first byte of the form to the re-encoded image.
 */
export function uploadMetrics(registry: Registry): UploadMeter {
  const registers = [registry];
  const uploads = new Counter({
    name: 'uploads_total',
    help: 'Requests that carried an image, by kind (banner, avatar) and outcome',
    labelNames: ['kind', 'outcome'],
    registers,
  });
  const bytes = new Counter({
    name: 'upload_bytes_total',
    help: 'Bytes of the accepted images as they were sent, by kind',
    labelNames: ['kind'],
    registers,
  });
  const durations = new Histogram({
    name: 'upload_duration_seconds',
    help: 'Time from reading a form to its re-encoded image (or its refusal), by kind and outcome',
    labelNames: ['kind', 'outcome'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  return {
    finished(kind, outcome, sent, seconds) {
      uploads.inc({ kind, outcome });
      if (outcome === 'accepted') bytes.inc({ kind }, sent);
      durations.observe({ kind, outcome }, seconds);
    },
  };
}
