// A media server recording a synthetic teacher's four streams into the folder given; prints, as JSON lines, the
// recording state the teacher is told with the recording's metrics then, and every 500 ms, the process's memory and the bytes held for the disk.
// SIGTERM ends the session (its manifest's `end`) and the process.
import type { Registry } from 'prom-client';
import { mediaMetrics } from '../src/media-metrics.ts';
import { teachingServer } from './teaching-server.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: recording-disk-child.ts RECORDINGS_DIR');
const print = (line: object) => console.log(JSON.stringify(line));
const RECORDING_METRICS = [
  'media_recordings_stalled',
  'media_recording_write_failures_total',
  'media_recording_held_bytes',
];
let registry: Registry | null = null;
async function recordingMetrics(): Promise<Record<string, number | undefined>> {
  const metrics = (await registry?.getMetricsAsJSON()) ?? [];
  const values = metrics
    .filter((metric) => RECORDING_METRICS.includes(metric.name))
    .map((metric) => [metric.name, metric.values[0]?.value]);
  return Object.fromEntries(values) as Record<string, number | undefined>;
}
const setup = await teachingServer(
  0,
  ['webcamVideo', 'webcamAudio', 'screenShareVideo', 'screenShareAudio'],
  {
    recordingsDir: dir,
    screen: true,
    // The replay made from this recording is checked against the lecture's times.
    wallClock: true,
    notify: (event, payload) => {
      if (event !== 'recordingState') return;
      // The metrics as a scrape right after the change would read them.
      setImmediate(() => void recordingMetrics().then((metrics) => print({ state: payload, metrics })));
    },
  },
);
registry = mediaMetrics(setup.server);
print({ sessionKey: setup.room.sessionKey });
// What the process holds after a collection (the test starts it with --expose-gc): heap and buffers.
const gc = (globalThis as { gc?: () => void }).gc;
setInterval(() => {
  gc?.();
  const { rss, heapUsed, external } = process.memoryUsage();
  print({ rss, kept: heapUsed + external, held: setup.room.recordingHeldBytes });
}, 500).unref();
process.once('SIGTERM', () => {
  void setup.close().then(() => process.exit(0));
});
// Kept alive until the test ends it (bounded: a forgotten child ends by itself).
setTimeout(() => process.exit(2), 120_000);
