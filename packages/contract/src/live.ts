import { z } from 'zod';
import { IceServerSchema } from './live-ticket.ts';

/** socket.io path of the media service's signalling (live-media.md section 1). */
export const LIVE_SOCKET_PATH = '/server';

/**
 * The signalling's heart-beat: the media service pings every client this often (socket.io `pingInterval`), so
 * a client that hears nothing for a few of these knows the network went silent before the connection times
 * out ({@link LIVE_HEARTBEAT_TIMEOUT_MS}).
 */
export const LIVE_HEARTBEAT_MS = 500;
/**
 * How long the media service waits for a ping's answer before it drops the connection (socket.io
 * `pingTimeout`); a client drops it after {@link LIVE_HEARTBEAT_MS} plus this without a ping.
 */
export const LIVE_HEARTBEAT_TIMEOUT_MS = 2_500;

/**
 * The streams of a room: the four a teacher can publish, each switched on and off on its own, and
 * `speakerAudio`, the microphone of a student speaking at the teacher's invitation (one per speaker).
 */
export const STREAM_KINDS = [
  'webcamVideo',
  'webcamAudio',
  'screenShareVideo',
  'screenShareAudio',
  'speakerAudio',
] as const;
export type StreamKind = (typeof STREAM_KINDS)[number];
export const StreamKindSchema = z.enum(STREAM_KINDS);

/** Whether a stream kind carries audio or video. */
export function mediaKindOf(kind: StreamKind): 'audio' | 'video' {
  return kind === 'webcamVideo' || kind === 'screenShareVideo' ? 'video' : 'audio';
}

/** The only stream a student ever publishes: their microphone, while speaking (see `acceptSpeak`). */
export const SPEAKER_KIND = 'speakerAudio' satisfies StreamKind;

/** The most students speaking (or invited to) at once in one room. */
export const MAX_SPEAKERS = 2;
/**
 * How long the media service keeps the place of a student who was invited or speaking when their connection
 * went: back within it, they are invited again at once (`speakerChanged` with `self: 'invited'`), and a client
 * that was speaking accepts by itself, so a reconnection does not send them back to raising a hand.
 */
export const SPEAKER_RETURN_MS = 30_000;

/** Simulcast layers of the webcam video, lowest first. */
export const LAYERS = ['q', 'h', 'f'] as const;
export type Layer = (typeof LAYERS)[number];

/** A layer a student may ask for; `auto` lets the SFU choose from the student's bandwidth. */
export const PREFERRED_LAYERS = [...LAYERS, 'auto'] as const;
export type PreferredLayer = (typeof PREFERRED_LAYERS)[number];
export const PreferredLayerSchema = z.enum(PREFERRED_LAYERS);

/** One simulcast encoding as `RTCRtpSender` takes it. */
export type LayerEncoding = { rid: Layer; maxBitrate: number; scaleResolutionDownBy: number };

/**
 * The webcam's simulcast encodings, lowest first (capture at 1280x720 or more, or the browser drops layers):
 * 320x180 at 100 kbit/s, 640x360 at 300 kbit/s, 1280x720 at 900 kbit/s.
 */
export const LAYER_ENCODINGS: readonly LayerEncoding[] = [
  { rid: 'q', maxBitrate: 100_000, scaleResolutionDownBy: 4 },
  { rid: 'h', maxBitrate: 300_000, scaleResolutionDownBy: 2 },
  { rid: 'f', maxBitrate: 900_000, scaleResolutionDownBy: 1 },
];

/** An id the server hands out (producer, consumer, transport). */
const IdSchema = z.string().min(1).max(100);
/** An SDP text; generous bound so a malicious client cannot make the server parse megabytes. */
const SdpSchema = z.string().min(1).max(100_000);

/** A published stream as students see it. */
export const ProducerInfoSchema = z.object({ producerId: IdSchema, producerKind: StreamKindSchema });
export type ProducerInfo = z.infer<typeof ProducerInfoSchema>;

/** One forwarded stream inside a student's connection: which m-line (`mid`) carries which stream. */
export const ConsumerInfoSchema = z.object({
  consumerId: IdSchema,
  producerId: IdSchema,
  producerKind: StreamKindSchema,
  mid: z.string(),
});
export type ConsumerInfo = z.infer<typeof ConsumerInfoSchema>;

/** A codec the SFU forwards. */
export const LiveCodecSchema = z.object({
  kind: z.enum(['audio', 'video']),
  mimeType: z.string(),
  clockRate: z.number().int(),
  channels: z.number().int().optional(),
});
export type LiveCodec = z.infer<typeof LiveCodecSchema>;

const Empty = z.object({}).strict();

/**
 * Whether the session is recorded (chosen at `startRoom`, fixed for the session) and whether the teacher has
 * paused the recording. Teacher and students see the same, so nobody is recorded unknowingly.
 */
export const RecordingStateSchema = z.object({
  recording: z.boolean(),
  paused: z.boolean(),
  /**
   * The recording's files cannot be written now (the recordings disk is full or broken): nothing is recorded
   * until they can, and then recording goes on by itself. Sent only while true (absent: false).
   */
  stalled: z.boolean().optional(),
});
export type RecordingState = z.infer<typeof RecordingStateSchema>;

/** A user id as the live ticket names it (`sub`), the same id as the chat's raised hands carry. */
const UserIdSchema = z.string().min(1).max(200);

/**
 * A student invited to speak (`invited`: the teacher asked, the student has not accepted yet) or speaking
 * (`speaking`: accepted; `producerId` is their microphone's stream once it is published, else null).
 */
export const SpeakerSchema = z.object({
  userId: UserIdSchema,
  nickname: z.string(),
  state: z.enum(['invited', 'speaking']),
  producerId: IdSchema.nullable(),
});
export type Speaker = z.infer<typeof SpeakerSchema>;

/**
 * Who speaks now, as one peer sees it: every invited or speaking student (at most {@link MAX_SPEAKERS}, in the
 * order the teacher invited them) and where the receiver stands (`self`: always `none` for the teacher).
 */
export const SpeakingViewSchema = z.object({
  speakers: z.array(SpeakerSchema).max(MAX_SPEAKERS),
  self: z.enum(['none', 'invited', 'speaking']),
});
export type SpeakingView = z.infer<typeof SpeakingViewSchema>;

/**
 * A student in the room as the teacher's participant list shows them: here or on an edge node pulling the
 * class. `nickname` is blank for a student on an edge older than nicknames in `relayViewers`.
 */
export const ParticipantSchema = z.object({ userId: UserIdSchema, nickname: z.string().max(200) });
export type Participant = z.infer<typeof ParticipantSchema>;

/**
 * Every request a client sends (client → server, acknowledged), with its payload schema and answer `data`
 * schema. The event name is the key. Each is answered `{ data }` or `{ error }` (see {@link LiveAnswer}).
 */
export const LIVE_REQUESTS = {
  /**
   * Teacher: opens the room and marks the class live. A second teacher connection replaces the first.
   * `record` (default true) decides whether a new session is recorded; a room already open keeps its choice.
   * `speakers`: the students the teacher's client last saw invited or speaking, sent when it starts the room
   * again after losing it. A room this call opens (the media service died and came back) keeps their places
   * for {@link SPEAKER_RETURN_MS} as if their connections had dropped there: each is invited again on entering,
   * and a client that was speaking accepts by itself. A room already open ignores it (it knows its seats).
   */
  startRoom: {
    payload: z
      .object({
        record: z.boolean().optional(),
        speakers: z.array(UserIdSchema).max(MAX_SPEAKERS).optional(),
      })
      .strict(),
    answer: z.object({ producers: z.array(ProducerInfoSchema) }),
  },
  /** Student: joins the open room of a live class; answers the streams currently published. */
  joinRoom: { payload: Empty, answer: z.object({ producers: z.array(ProducerInfoSchema) }) },
  /** Both: the streams currently published. */
  getProducers: { payload: Empty, answer: z.object({ producers: z.array(ProducerInfoSchema) }) },
  /** Both: codecs, the ICE servers to use, and the webcam's simulcast encodings. */
  getRouterRtpCapabilities: {
    payload: Empty,
    answer: z.object({
      codecs: z.array(LiveCodecSchema),
      iceServers: z.array(IceServerSchema),
      layers: z.array(
        z.object({ rid: z.enum(LAYERS), maxBitrate: z.number(), scaleResolutionDownBy: z.number() }),
      ),
    }),
  },
  /**
   * Teacher, or a student speaking (accepted an invitation): creates (or replaces) the one publishing
   * connection. A student's closes when their speaking ends.
   */
  createProducerTransport: { payload: Empty, answer: z.object({ transportId: IdSchema }) },
  /** Teacher or speaking student: an offer for the publishing connection (first or renegotiation); answers the answer. */
  connectProducerTransport: {
    payload: z.object({ transportId: IdSchema, sdp: SdpSchema }),
    answer: z.object({ sdp: z.string() }),
  },
  /**
   * The m-line `mid` of the last negotiated offer carries this stream; replaces a stream of that kind. The
   * teacher publishes the four teacher kinds; a student only `speakerAudio` (an audio m-line), and only while
   * speaking: anything else is refused (`forbidden`).
   */
  produce: {
    payload: z.object({
      transportId: IdSchema,
      producerKind: StreamKindSchema,
      mid: z.string().min(1).max(32),
      /**
       * Only an edge node's relay, publishing a speaking student's microphone up to the origin: that student
       * (invited through this relay and accepted, see `relayAcceptSpeak`). Anybody else: `forbidden`.
       */
      userId: UserIdSchema.optional(),
    }),
    answer: z.object({ producerId: IdSchema }),
  },
  /** Teacher: stops one stream; students get `producerClosed`. */
  closeProducer: { payload: z.object({ producerKind: StreamKindSchema }), answer: Empty },
  /**
   * Teacher: pauses (`false`) or resumes (`true`) the recording of a recorded session; everybody gets
   * `recordingState`. Refused (`conflict`) in a session started without recording.
   */
  setRecording: { payload: z.object({ recording: z.boolean() }), answer: RecordingStateSchema },
  /** Student, or the teacher (to hear speaking students): creates (or replaces) the one receiving connection. */
  createConsumerTransport: { payload: Empty, answer: z.object({ transportId: IdSchema }) },
  /**
   * Brings the receiving connection up to date with the published streams. Answers an offer and every current
   * consumer (new ones start paused: call `resume`). A student receives the teacher's streams and every other
   * speaker's `speakerAudio`; the teacher receives the speakers' only.
   */
  consume: {
    payload: z.object({ transportId: IdSchema }),
    answer: z.object({ sdp: z.string(), consumers: z.array(ConsumerInfoSchema) }),
  },
  /** The answer to the last `consume` offer. */
  connectConsumerTransport: { payload: z.object({ transportId: IdSchema, sdp: SdpSchema }), answer: Empty },
  /**
   * Starts forwarding one consumer, or forwards it again after `pause` (video starts at the next keyframe, which
   * the SFU asks the teacher for at once).
   */
  resume: { payload: z.object({ consumerId: IdSchema }), answer: Empty },
  /**
   * Stops forwarding one consumer until `resume`: no RTP of it is sent to the caller meanwhile (the m-line stays
   * negotiated). A student in '데이터 절약 모드' pauses the screen share's video while a material is on stage.
   */
  pause: { payload: z.object({ consumerId: IdSchema }), answer: Empty },
  /** Student: fixes the webcam layer, or `auto` to follow the student's bandwidth. */
  setPreferredLayer: {
    payload: z.object({ consumerId: IdSchema, layer: PreferredLayerSchema }),
    answer: Empty,
  },
  /**
   * An edge media node's relay (never a browser): how many students the edge has in this class now, so the
   * teacher's viewer count covers every node.
   */
  relayViewers: {
    payload: z.object({
      count: z.number().int().min(0).max(100_000),
      /** The edge's students' user ids (edges before this field told only the number). */
      userIds: z.array(z.string().min(1).max(200)).max(100_000).optional(),
      /**
       * The nicknames of those students by user id (edges before this field told none): the teacher sees an
       * edge's student invited to speak by name. Without it, an edge's student cannot be invited.
       */
      nicknames: z.record(UserIdSchema, z.string().max(200)).optional(),
    }),
    answer: Empty,
  },
  /**
   * An edge media node's relay (never a browser): its student `userId`, whom the teacher invited through this
   * relay (the origin's `speakerChanged` to the relay lists them `invited`), accepted. The seat becomes
   * `speaking`; the relay may then publish that student's microphone (`produce` with `userId`). Refused
   * (`forbidden`) for a user not seated through this relay, which is every user the relay does not list.
   */
  relayAcceptSpeak: { payload: z.object({ userId: UserIdSchema }).strict(), answer: SpeakingViewSchema },
  /**
   * An edge media node's relay: its student `userId` stopped speaking (ended, declined, left the edge). The
   * seat ends as by the teacher's `endSpeaking`; a user not seated through this relay changes nothing.
   */
  relayEndSpeaking: { payload: z.object({ userId: UserIdSchema }).strict(), answer: SpeakingViewSchema },
  /**
   * Teacher: invites a student in the room (by user id, e.g. from the raised hands) to speak; idempotent.
   * Refused (`conflict`) when {@link MAX_SPEAKERS} are invited or speaking already, or the student is not in
   * the room here. Everybody hears `speakerChanged`.
   */
  inviteToSpeak: { payload: z.object({ userId: UserIdSchema }).strict(), answer: SpeakingViewSchema },
  /**
   * Student: accepts the teacher's invitation (`forbidden` without one); then may create a publishing
   * connection and `produce` `speakerAudio`.
   */
  acceptSpeak: { payload: Empty, answer: SpeakingViewSchema },
  /**
   * Ends speaking (or an invitation): the teacher's for one student (`userId`) or for all (none); a student's
   * only for themself (declining an invitation too). Their stream closes: everybody hears `producerClosed`
   * and `speakerChanged`.
   */
  endSpeaking: {
    payload: z.object({ userId: UserIdSchema.optional() }).strict(),
    answer: SpeakingViewSchema,
  },
  /**
   * Teacher: steps out without ending the lecture ('잠시 나가기'). When this connection then closes, even on
   * purpose, the room waits {@link STEP_OUT_MS} (not the short grace of a dropped connection) for a teacher
   * connection's `startRoom`, which continues the same session; past it the room ends as when the teacher
   * leaves. Answers how long the room waits.
   */
  stepOut: { payload: Empty, answer: z.object({ awayMs: z.number().int() }) },
} as const;

/** How long a room whose teacher stepped out (`stepOut`) waits for them before the lecture ends. */
export const STEP_OUT_MS = 10 * 60_000;

export type LiveRequestName = keyof typeof LIVE_REQUESTS;
export type LiveRequestPayload<N extends LiveRequestName> = z.infer<(typeof LIVE_REQUESTS)[N]['payload']>;
export type LiveRequestData<N extends LiveRequestName> = z.infer<(typeof LIVE_REQUESTS)[N]['answer']>;

/** Every event the server emits (server → client), with its payload schema. */
export const LIVE_EVENTS = {
  /** The teacher (or a speaking student: `speakerAudio`) started a stream. Not sent to the stream's owner. */
  newProducer: ProducerInfoSchema,
  /** The teacher (or a speaker) stopped a stream, or speaking ended. */
  producerClosed: ProducerInfoSchema,
  /** Once, when the teacher leaves or their connection is gone for good; the server then disconnects. */
  teacherLeft: Empty,
  /** The number of students in the room changed (also sent to a teacher right after `startRoom`). */
  viewerCount: z.object({ count: z.number().int().min(0) }),
  /**
   * To the teacher only: the students in the room now, here and on every edge node, in the order they came
   * (the teacher's participant list). Sent right after `startRoom` and whenever a student comes or goes.
   */
  participants: z.object({ students: z.array(ParticipantSchema) }),
  /** The recording's state: to everybody when it changes, and to each peer right after it enters. */
  recordingState: RecordingStateSchema,
  /**
   * Who is invited or speaking changed (an invitation, an acceptance, a microphone published, speaking ended,
   * a speaker left); also sent to each peer right after it enters. Each peer gets its own `self`.
   */
  speakerChanged: SpeakingViewSchema,
  /**
   * To every peer when the media node stops (a restart or an upgrade), then its connection drops: not the end
   * of the class. The client reconnects with a fresh ticket (the API server places it on a node that runs, or
   * on this one once it is back) and enters again; a student waits meanwhile for the teacher to start the room
   * again rather than taking `notLive` as the end.
   */
  nodeStopped: Empty,
} as const;

export type LiveEventName = keyof typeof LIVE_EVENTS;
export type LiveEventPayload<N extends LiveEventName> = z.infer<(typeof LIVE_EVENTS)[N]>;

/** Error codes of a refused request. */
export const LIVE_ERROR_CODES = [
  /** Ticket missing, invalid or expired (connection refused). */
  'unauthorized',
  /** The caller's role may not do this (e.g. a student starting the room). */
  'forbidden',
  /** The class is not live: the teacher has not started the room. */
  'notLive',
  /** The caller has not started or joined the room yet. */
  'notInRoom',
  /** The payload does not match the request's schema. */
  'badRequest',
  /** A named transport, consumer or m-line does not exist. */
  'notFound',
  /** The request conflicts with the current state (e.g. an SDP the connection cannot apply now). */
  'conflict',
  /** An unexpected server failure, or no answer within the server's deadline; the message is generic. */
  'internal',
  /** The media node is at its capacity (MEDIA_CAPACITY students): the student is refused, not taken in. */
  'full',
] as const;
export type LiveErrorCode = (typeof LIVE_ERROR_CODES)[number];

/** A refusal: a machine code and a Korean message a person may see. */
export type LiveError = { code: LiveErrorCode; message: string };

/** The acknowledgement of every request. */
export type LiveAnswer<T> = { data: T } | { error: LiveError };
