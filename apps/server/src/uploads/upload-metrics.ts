import { Counter, type Registry } from 'prom-client';
import { timedCounter } from '../plugins/metrics.ts';
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
  const uploads = timedCounter(registry, ['kind', 'outcome'], {
    total: ['uploads_total', 'Requests that carried an image, by kind (banner, avatar) and outcome'],
    seconds: [
      'upload_duration_seconds',
      'Time from reading a form to its re-encoded image (or its refusal), by kind and outcome',
    ],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  const bytes = new Counter({
    name: 'upload_bytes_total',
    help: 'Bytes of the accepted images as they were sent, by kind',
    labelNames: ['kind'],
    registers: [registry],
  });
  return {
    finished(kind, outcome, sent, seconds) {
      uploads({ kind, outcome }, seconds);
      if (outcome === 'accepted') bytes.inc({ kind }, sent);
    },
  };
}
