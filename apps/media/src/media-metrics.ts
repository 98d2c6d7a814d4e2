import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { MediaServer } from './media-server.ts';
import { recordingCounts } from './recording/recording-counts.ts';
import { openUploads } from './recording/recording-upload.ts';
import { rtpCounts, type RtpCounts, sumRtpCounts } from './rtc/rtp-counts.ts';

/** The counters read from the RTP paths' counts: name, help, and which count. */
const RTP_COUNTERS: [name: string, help: string, count: keyof RtpCounts][] = [
  ['media_received_packets_total', 'RTP packets received from teachers', 'received'],
  ['media_received_bytes_total', 'RTP payload bytes received from teachers', 'receivedBytes'],
  ['media_forwarded_packets_total', 'RTP packets forwarded to students', 'forwarded'],
  ['media_forwarded_bytes_total', 'RTP payload bytes forwarded to students', 'forwardedBytes'],
  ['media_nacks_sent_total', 'NACK feedback packets sent to teachers', 'nacksSent'],
  ['media_nacked_packets_total', 'Packets asked for again from teachers by NACKs', 'nackedPackets'],
  ['media_keyframe_requests_total', 'Keyframe requests (PLIs) sent to teachers', 'keyframeRequests'],
  [
    'media_expected_packets_total',
    "Teachers' packets expected, as the loss estimate counted them",
    'expected',
  ],
  ['media_lost_packets_total', "Teachers' packets lost on the way to this node", 'lost'],
];

/**
 * The media service's Prometheus registry: the process's default metrics, the live state read from the
 * server at each scrape (rooms, students, streams, forwarding workers' load), and the RTP counters of the main
 * thread plus every forwarding worker's (asked for at each scrape; a replaced worker's counts start again from
 * 0, which Prometheus reads as a counter reset).
 */
export function mediaMetrics(server: MediaServer): Registry {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  const rooms = () => server.roomReports();
  new Gauge({
    name: 'media_rooms',
    help: 'Live rooms (classes being taught) on this node',
    registers,
    collect() {
      this.set(rooms().length);
    },
  });
  new Gauge({
    name: 'media_students',
    help: 'Students in the live rooms of this node',
    registers,
    collect() {
      this.set(rooms().reduce((sum, room) => sum + room.students.length, 0));
    },
  });
  new Gauge({
    name: 'media_streams',
    help: "Teachers' streams (webcam, microphone, screen, system audio) published on this node",
    registers,
    collect() {
      const streams = rooms().map((room) => server.room(room.classId)?.currentProducers().length ?? 0);
      this.set(streams.reduce((sum, n) => sum + n, 0));
    },
  });
  new Gauge({
    name: 'media_forwarding_worker_utilization',
    help: "Share of time each forwarding worker's event loop was busy since the previous scrape (0 to 1)",
    labelNames: ['worker'],
    registers,
    collect() {
      this.reset();
      server.forwarding
        ?.utilization()
        .forEach((value, worker) => this.set({ worker: String(worker) }, value));
    },
  });

  new Gauge({
    name: 'media_recordings_stalled',
    help: 'Recorded rooms of this node whose files cannot be written now (a full or broken disk)',
    registers,
    collect() {
      const stalled = rooms().filter((room) => server.room(room.classId)?.recordingState.stalled);
      this.set(stalled.length);
    },
  });
  new Gauge({
    name: 'media_recording_held_bytes',
    help: 'Bytes of recordings held in memory for the disk (bounded: a few seconds of each stream)',
    registers,
    collect() {
      const held = rooms().map((room) => server.room(room.classId)?.recordingHeldBytes ?? 0);
      this.set(held.reduce((sum, n) => sum + n, 0));
    },
  });
  new Gauge({
    name: 'media_recording_upload_pending_bytes',
    help: 'Bytes of recordings on this node not in the object store yet (STORAGE=s3; a round goes up every 5 s)',
    registers,
    collect() {
      this.set([...openUploads].reduce((sum, upload) => sum + upload.pendingBytes, 0));
    },
  });
  new Counter({
    name: 'media_recording_upload_failures_total',
    help: 'Upload rounds of recordings into the object store that failed (each is tried again)',
    registers,
    collect() {
      this.reset();
      this.inc(recordingCounts.uploadFailures);
    },
  });
  new Counter({
    name: 'media_recording_write_failures_total',
    help: "Times a session's recording stalled because its files could not be written",
    registers,
    collect() {
      this.reset();
      this.inc(recordingCounts.writeFailures);
    },
  });

  // One read of every thread's counts per scrape, shared by the counters below.
  let pending: Promise<RtpCounts> | null = null;
  const counts = () => {
    pending ??= (async () => {
      const workers = (await server.forwarding?.counts()) ?? [];
      return sumRtpCounts([rtpCounts, ...workers.map((worker) => worker.rtp)]);
    })().finally(() => {
      setImmediate(() => (pending = null));
    });
    return pending;
  };
  for (const [name, help, count] of RTP_COUNTERS) {
    new Counter({
      name,
      help,
      registers,
      async collect() {
        const value = (await counts())[count];
        this.reset();
        this.inc(value);
      },
    });
  }
  return registry;
}
