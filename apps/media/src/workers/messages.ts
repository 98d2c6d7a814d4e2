import type { Layer, LiveErrorCode, PreferredLayer, StreamKind } from '@sea/contract/live';
import type { RtcOptions } from '../rtc/peer-connection.ts';
import type { RtpCounts } from '../rtc/rtp-counts.ts';

/** What a forwarding worker starts with (`workerData`). */
export type WorkerSetup = { rtc: RtcOptions };

/** A teacher's stream as a worker mirrors it. */
export type StreamDescription = { id: string; kind: StreamKind; layers: Layer[] };

/** What a worker holds, for tests and leak checks. */
export type WorkerCounts = {
  transports: number;
  consumers: number;
  streams: number;
  /** Listeners on the mirrored streams' packets. */
  packetListeners: number;
  /** Packets of the teacher's streams received from the main thread so far. */
  packetsReceived: number;
  /** Video packets of those dropped because they waited too long in the worker's queue (`StaleVideoGate`). */
  packetsStale: number;
  /** werift peer connections not closed yet. */
  peerConnections: number;
  sockets: number;
  timers: number;
  /** What the worker's forwarding counted (the metrics). */
  rtp: RtpCounts;
};

/** The main thread's requests about one student's transport (or the worker as a whole); each is answered once. */
export type Call =
  | { op: 'create'; transportId: string }
  | { op: 'consume'; transportId: string; streamIds: string[] }
  | { op: 'connect'; transportId: string; sdp: string }
  | { op: 'resume'; transportId: string; consumerId: string }
  | { op: 'pause'; transportId: string; consumerId: string }
  | { op: 'setPreferredLayer'; transportId: string; consumerId: string; layer: PreferredLayer }
  | { op: 'close'; transportId: string }
  | { op: 'counts' };

/** Main thread → worker. Messages on one port arrive in order: a stream is described before its packets. */
export type ToWorker =
  | { t: 'call'; n: number; call: Call }
  | { t: 'stream'; stream: StreamDescription }
  /** `sentAt`: when the main thread posted it (`wallClockMs()`), so that a worker behind can drop stale video. */
  | { t: 'rtp'; id: string; layer: Layer; keyframe: boolean; data: Uint8Array; sentAt: number }
  /** Right after `stream`: the main thread's held keyframe of a layer (`KeyframeHold`), complete `ageMs` ago. */
  | { t: 'heldKeyframe'; id: string; layer: Layer; packets: Uint8Array[]; ageMs: number }
  | { t: 'streamClosed'; id: string };

/** Worker → main thread. */
export type FromWorker =
  | { t: 'reply'; n: number; value: unknown }
  /** The call was refused (a `LiveError`, answered to the student as it is). */
  | { t: 'refused'; n: number; code: LiveErrorCode; message: string }
  /** The call failed unexpectedly (answered as an internal error). */
  | { t: 'failed'; n: number; message: string }
  /** A consumer wants a keyframe of a layer of a stream. */
  | { t: 'keyframe'; id: string; layer: Layer }
  /** The transport closed in the worker (its connection failed, or it was closed on request). */
  | { t: 'transportClosed'; transportId: string };
