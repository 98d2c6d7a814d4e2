import { io, type Socket } from 'socket.io-client';
import {
  LIVE_SOCKET_PATH,
  type ConsumerInfo,
  type LiveAnswer,
  type LiveRequestData,
  type LiveRequestName,
  type LiveRequestPayload,
  type RecordingState,
  type SpeakingView,
} from '@sea/contract/live';
import { Peer, type PeerCloseReason } from '../peer.ts';
import type { RtcOptions } from '../rtc/peer-connection.ts';
import type { Producer } from '../rtc/producer.ts';
import type { ProducerTransport } from '../rtc/producer-transport.ts';
import type { Room } from '../room/room.ts';
import type { FindOrigin } from '../registry/origin-finder.ts';
import { CoalescedRuns } from './coalesced-runs.ts';
import { EdgeSpeakers } from './edge-speakers.ts';
import { followOrigin } from './origin-follow.ts';
import { signRelayTicket } from './relay-ticket.ts';
import { edgeSpeakingView, publishSlot, slotOf } from './stream-slots.ts';
import { log } from '../log.ts';

export type OriginPullOptions = {
  /** MEDIA_SECRET, shared by every node: the edge signs its own ticket for the origin with it. */
  secret: string;
  /** This node's name, in the relay's user id on the origin. */
  nodeId: string;
  rtc: RtcOptions;
  /** How long a request to the origin may take. */
  requestTimeoutMs?: number;
  /**
   * Where the class's teacher is now (REDIS_URL: the registry of nodes): an edge room whose origin is lost
   * follows the class to its new origin. Absent, it waits its grace period and ends.
   */
  findOrigin?: FindOrigin;
  /** How long after losing its origin an edge room looks for the new one (the teacher grace period). */
  followForMs?: number;
};

const REQUEST_TIMEOUT_MS = 10_000;
/** How often the edge's number of students is looked at, and told to the origin when it changed. */
const VIEWERS_EVERY_MS = 1_000;

/** Makes the MediaServer's `pullOrigin`: each edge room pulls its class from the origin with an {@link OriginPull}. */
export function originPuller(options: OriginPullOptions): (room: Room, origin: string) => void {
  return (room, origin) => pull(room, origin, options, null);
}

/**
 * Pulls `room`'s class from `origin`; when that origin is lost, follows the class to its new origin (with
 * `findOrigin`) until `followUntil`, which a pull that never got going keeps and one that did renews.
 */
function pull(room: Room, origin: string, options: OriginPullOptions, followUntil: number | null): void {
  const find = options.findOrigin;
  const onLost = (pulled: boolean) => {
    if (!find) return;
    const lostAt = performance.now();
    const until = pulled || followUntil === null ? lostAt + (options.followForMs ?? 0) : followUntil;
    followOrigin(room, { url: origin, lostAt }, until, find, (next) => pull(room, next, options, until));
  };
  new OriginPull(room, origin, options, onLost).start();
}

/**
 * An edge node's pull of one class from its origin node, once per class whatever the number of its students:
 * it enters the origin's room as a relay (its own ticket, signed with MEDIA_SECRET), receives every stream
 * there over WebRTC (the webcam as one m-line per simulcast layer), and publishes them in the edge's room as
 * the teacher would, so the edge's students are served exactly as on the origin. Feedback crosses hop by hop:
 * the edge's students' keyframe requests become the edge's PLIs to the origin, losses on the way are NACKed by
 * the edge's receiving transport and resent by the origin's. When the origin's room ends, the edge's does.
 */
export class OriginPull {
  private readonly room: Room;
  private readonly origin: string;
  private readonly options: OriginPullOptions;
  private readonly peer: Peer;
  /** This edge's own students speaking, seated at the origin through the relay. */
  private readonly speakers: EdgeSpeakers;
  private socket: Socket | null = null;
  private transport: ProducerTransport | null = null;
  private transportId: string | null = null;
  /**
   * Each published stream by slot (the teacher's by kind, each speaker's by its producer on the origin): what
   * it is made of (its consumers on the origin), to notice a change, and the edge's producer.
   */
  private readonly published = new Map<string, { key: string; producer: Producer | null }>();
  /** Who speaks at the origin, as last told (its producer ids the origin's). */
  private originSpeaking: SpeakingView | null = null;
  /** Several stream changes in a row cost one renegotiation. */
  private readonly syncs = new CoalescedRuns(
    () => this.sync(),
    (error) => {
      log.warn(
        { err: error, classId: this.room.classId, origin: this.origin },
        'updating the streams pulled from the origin failed',
      );
      this.end('disconnected');
    },
    () => this.isStopped,
  );
  private viewersTimer: NodeJS.Timeout | null = null;
  /** The student ids last told to the origin, one per line ('' before any: no students to tell). */
  private toldViewers: string | null = '';
  private isStopped = false;
  /** Whether the origin took the relay in (so a loss afterwards is a new one). */
  private joined = false;
  private readonly onLost: (joined: boolean) => void;

  constructor(
    room: Room,
    origin: string,
    options: OriginPullOptions,
    onLost: (joined: boolean) => void = () => {},
  ) {
    this.room = room;
    this.origin = origin;
    this.options = options;
    this.onLost = onLost;
    // Nodes reach each other's UDP ports directly: no STUN or TURN between them (docs/media.md).
    const rtc = { ...options.rtc, iceServers: [], fullIce: true };
    this.peer = new Peer(
      { userId: `relay:${options.nodeId}`, nickname: 'relay', role: 'teacher', classId: room.classId },
      rtc,
      () => undefined, // the origin's viewer count and the edge's own are not the relay's business
    );
    this.speakers = new EdgeSpeakers(room, (name, payload) => this.request(name, payload), rtc);
  }

  /** Becomes the edge room's teacher and starts pulling. */
  start(): void {
    this.room.startTeacher(this.peer);
    this.room.speaking.upstream = this.speakers;
    this.peer.closed.subscribe(() => this.stop());
    void this.connect().catch((error: unknown) => {
      log.warn(
        { err: error, classId: this.room.classId, origin: this.origin },
        'pulling a class from its origin failed',
      );
      this.end('disconnected');
    });
  }

  private async connect(): Promise<void> {
    const socket = io(this.origin, {
      path: LIVE_SOCKET_PATH,
      transports: ['websocket'],
      auth: (send) =>
        void signRelayTicket(this.options.secret, this.options.nodeId, this.room.classId).then((ticket) =>
          send({ ticket }),
        ),
      reconnection: false,
      forceNew: true,
    });
    this.socket = socket;
    socket.on('teacherLeft', () => this.end('left'));
    socket.on('newProducer', () => this.syncs.schedule());
    socket.on('producerClosed', () => this.syncs.schedule());
    socket.on('recordingState', (state: RecordingState) => this.room.relayRecording(state));
    socket.on('speakerChanged', (view: SpeakingView) => {
      this.originSpeaking = view;
      this.tellSpeaking();
      this.speakers.follow(view);
    });
    // The class's end comes as teacherLeft first. Any other loss (the origin stopping or dying, the network)
    // leaves the edge room its teacher's grace period: the teacher may come back on this node or another.
    socket.on('disconnect', () => this.end('disconnected'));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', (error) => reject(error));
    });
    await this.request('joinRoom', {});
    this.joined = true;
    this.transportId = (await this.request('createConsumerTransport', {})).transportId;
    this.syncs.schedule();
    this.viewersTimer = setInterval(() => this.tellViewers(), VIEWERS_EVERY_MS);
    this.tellViewers();
  }

  /**
   * Tells the origin which students this edge has in the class (and so how many), with their nicknames (so the
   * teacher may invite one to speak), when that changed.
   */
  private tellViewers(): void {
    const userIds = this.room.studentIds().sort();
    const nicknames = Object.fromEntries(
      userIds.map((userId) => [userId, this.room.student(userId)?.info.nickname ?? '']),
    );
    const told = userIds.map((userId) => `${userId}\t${nicknames[userId]}`).join('\n');
    if (told === this.toldViewers || this.isStopped) return;
    this.toldViewers = told;
    this.request('relayViewers', { count: userIds.length, userIds, nicknames }).catch((error: unknown) => {
      this.toldViewers = null; // told again at the next look
      if (!this.isStopped) {
        log.warn(
          { err: error, classId: this.room.classId, origin: this.origin },
          "telling the origin the edge's viewers failed",
        );
      }
    });
  }

  /** Brings the origin's offer, the edge's answer and the edge's producers in step with the origin's streams. */
  private async sync(): Promise<void> {
    const transportId = this.transportId;
    if (!transportId || this.isStopped) return;
    if (!this.transport) {
      // A teacher who has just started (a new origin followed at once) publishes nothing yet; an offer
      // without media cannot be answered: the first newProducer brings the first negotiation.
      const { producers } = await this.request('getProducers', {});
      if (producers.length === 0) return;
    }
    const { sdp, consumers } = await this.request('consume', { transportId });
    this.transport ??= this.peer.createProducerTransport();
    const answer = await this.transport.connect(sdp);
    await this.request('connectConsumerTransport', { transportId, sdp: answer });
    const bySlot = new Map<string, ConsumerInfo[]>();
    for (const consumer of consumers) {
      const slot = slotOf(consumer);
      bySlot.set(slot, [...(bySlot.get(slot) ?? []), consumer]);
    }
    for (const slot of this.published.keys()) {
      if (bySlot.has(slot)) continue;
      this.published.delete(slot);
      this.transport.closeProducer(slot);
    }
    for (const [slot, list] of bySlot) {
      const key = list.map((consumer) => consumer.consumerId).join(',');
      if (this.published.get(slot)?.key === key) continue;
      this.published.set(slot, { key, producer: publishSlot(this.transport, slot, list) });
      for (const consumer of list) await this.request('resume', { consumerId: consumer.consumerId });
    }
    this.tellSpeaking();
  }

  /**
   * Tells the edge room who speaks at the origin, each speaker's producer id the edge's own (null until the
   * edge publishes that microphone), so the edge's students match voices to names as at the origin.
   */
  private tellSpeaking(): void {
    const view = this.originSpeaking;
    if (this.isStopped || !view) return;
    this.room.relaySpeaking(edgeSpeakingView(view, (slot) => this.published.get(slot)?.producer?.id ?? null));
  }

  private async request<N extends LiveRequestName>(
    name: N,
    payload: LiveRequestPayload<N>,
  ): Promise<LiveRequestData<N>> {
    const socket = this.socket;
    if (!socket) throw new Error('not connected to the origin');
    const timeout = this.options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    const answer = (await socket.timeout(timeout).emitWithAck(name, payload)) as LiveAnswer<
      LiveRequestData<N>
    >;
    if ('error' in answer) throw new Error(`${name}: ${answer.error.code} ${answer.error.message}`);
    return answer.data;
  }

  /** The origin's room ended (`left`) or cannot be reached (`disconnected`: the edge room's grace period). */
  private end(reason: PeerCloseReason): void {
    const lost = reason === 'disconnected' && !this.isStopped && !this.room.isClosedNow;
    this.peer.close(reason);
    if (lost) this.onLost(this.joined);
  }

  private stop(): void {
    if (this.isStopped) return;
    this.isStopped = true;
    if (this.viewersTimer) clearInterval(this.viewersTimer);
    // The edge's own speakers' seats end here (the origin ends its own as the relay leaves), and the relayed
    // microphones closed with the relay: the room's own seats (none, or a new teacher's) rule.
    this.speakers.close();
    if (this.room.speaking.upstream === this.speakers) this.room.speaking.upstream = null;
    this.room.relaySpeaking(null);
    this.room.relayRecording(null);
    this.socket?.disconnect();
    this.socket = null;
  }
}
