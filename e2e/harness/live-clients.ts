import { io, type Socket } from 'socket.io-client';
import { LIVE_SOCKET_PATH, type ConsumerInfo, type LiveAnswer } from '@sea/contract/live';
import { LiveTicketSchema, type LiveTicket } from '@sea/contract/live-ticket';
import { ROUTES, toPath } from '@sea/contract/paths';
import { SyntheticTeacher } from '../../apps/media/test/synthetic-teacher.ts';
import { LightStudent } from '../../harness/light-student.ts';

/*
 * Live clients that go where the API server's tickets send them, as the web client does (SignallingClient's
 * `relocate`): a lost connection, or one that cannot be made, asks for a fresh ticket and connects where it
 * names. A synthetic werift teacher, and light werift students (bench/sfu) that count RTP from clear headers.
 */

const REQUEST_TIMEOUT_MS = 10_000;
/** Wait between two attempts to enter (a ticket naming a node that is gone, a room not there yet). */
const RETRY_MS = 250;

/**
 * Fetches a live ticket of `classId` from the API server at `apiUrl` with `accessToken`; `unreachable`: the
 * node the client just could not connect to, as the web client says it.
 */
export function ticketSource(
  apiUrl: string,
  classId: number,
  accessToken: string,
): (unreachable?: string) => Promise<LiveTicket> {
  return async (unreachable) => {
    const query = unreachable ? `?unreachable=${encodeURIComponent(unreachable)}` : '';
    const response = await fetch(`${apiUrl}${toPath(ROUTES.liveTicket, { classId })}${query}`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    if (!response.ok) throw new Error(`live-ticket answered ${response.status}: ${await response.text()}`);
    return LiveTicketSchema.parse(((await response.json()) as { data: unknown }).data);
  };
}

async function request<T>(socket: Socket, name: string, payload: unknown = {}): Promise<T> {
  const answer = (await socket.timeout(REQUEST_TIMEOUT_MS).emitWithAck(name, payload)) as LiveAnswer<T>;
  if ('error' in answer) throw new Error(`${name}: ${answer.error.code} ${answer.error.message}`);
  return answer.data;
}

function connect(ticket: LiveTicket): Promise<Socket> {
  const socket = io(ticket.mediaUrl, {
    path: LIVE_SOCKET_PATH,
    transports: ['websocket'],
    auth: { ticket: ticket.ticket },
    reconnection: false,
    forceNew: true,
    timeout: 2_000,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** A client that (re-)enters wherever fresh tickets send it, until it is closed. */
abstract class TicketedClient {
  /** The node it is connected to now (its signalling URL), null while between nodes. */
  mediaUrl: string | null = null;
  /** When its last connection was lost (performance.now()), if ever. */
  lostAt: number | null = null;
  /** When it last entered a room (performance.now()): connected and, for the teacher, publishing. */
  enteredAt: number | null = null;
  /** Every ticket's node, in order, with when it was had (performance.now()). */
  readonly tickets: { mediaUrl: string; at: number }[] = [];
  protected socket: Socket | null = null;
  protected isClosed = false;
  readonly #ticket: (unreachable?: string) => Promise<LiveTicket>;
  #entering: Promise<void> | null = null;

  constructor(ticket: (unreachable?: string) => Promise<LiveTicket>) {
    this.#ticket = ticket;
  }

  /** Enters where a fresh ticket names, trying again with a new ticket for up to `timeoutMs`. */
  enter(timeoutMs = 20_000): Promise<void> {
    this.#entering ??= this.#tryUntil(performance.now() + timeoutMs).finally(() => (this.#entering = null));
    return this.#entering;
  }

  async close(): Promise<void> {
    this.isClosed = true;
    this.socket?.disconnect();
    await this.release();
  }

  /** Sets up the room's media on a connected socket. */
  protected abstract join(socket: Socket): Promise<void>;
  /** Drops the media of the previous connection. */
  protected abstract release(): Promise<void>;

  async #tryUntil(deadline: number): Promise<void> {
    let problem: unknown = null;
    // The node a connection attempt could not reach (no answer, not a refusal): told with the next ticket's
    // request, as the web client does.
    let unreachable: string | undefined = undefined;
    while (!this.isClosed && performance.now() < deadline) {
      let ticket: LiveTicket | null = null;
      try {
        ticket = await this.#ticket(unreachable);
        this.tickets.push({ mediaUrl: ticket.mediaUrl, at: performance.now() });
        unreachable = undefined;
        const socket = await connect(ticket).catch((error: unknown) => {
          if ((error as { data?: unknown }).data === undefined) unreachable = ticket?.mediaUrl;
          throw error;
        });
        this.socket = socket;
        await this.release();
        await this.join(socket);
        this.mediaUrl = ticket.mediaUrl;
        this.enteredAt = performance.now();
        socket.on('disconnect', (reason) => {
          if (this.socket !== socket || this.isClosed || reason === 'io client disconnect') return;
          this.lostAt = performance.now();
          this.mediaUrl = null;
          this.enter().catch((error: unknown) => console.error('live client: entering again failed', error));
        });
        return;
      } catch (error) {
        problem = `${String(error)} (at ${ticket?.mediaUrl ?? 'no ticket'})`;
        this.socket?.disconnect();
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
    throw new Error(`could not enter the room: ${String(problem)}`);
  }
}

/** A teacher publishing the webcam (three layers), microphone, screen and system audio, synthetic. */
export class TicketedTeacher extends TicketedClient {
  teacher: SyntheticTeacher | null = null;

  protected async join(socket: Socket): Promise<void> {
    const teacher = new SyntheticTeacher(1_000, { screen: true });
    this.teacher = teacher;
    await request(socket, 'startRoom', { record: false });
    const { transportId } = await request<{ transportId: string }>(socket, 'createProducerTransport');
    const { sdp } = await request<{ sdp: string }>(socket, 'connectProducerTransport', {
      transportId,
      sdp: await teacher.offer(),
    });
    await teacher.accept(sdp);
    teacher.start(30);
    for (const [producerKind, transceiver] of [
      ['webcamVideo', teacher.video],
      ['webcamAudio', teacher.audio],
      ['screenShareVideo', teacher.screen],
      ['screenShareAudio', teacher.systemAudio],
    ] as const) {
      await request(socket, 'produce', { transportId, producerKind, mid: transceiver?.mid ?? '' });
    }
  }

  protected async release(): Promise<void> {
    const teacher = this.teacher;
    this.teacher = null;
    await teacher?.close();
  }
}

/** How often a student looks at its webcam count. */
const SAMPLE_EVERY_MS = 20;
/**
 * A pause in the webcam's packets this long means it stopped (30 frames a second: one every 33 ms, sampled
 * every 20 ms). Short: a room taken over on the student's own node has its webcam back about 230 ms after the
 * origin's death, so a longer bound would not see that it ever stopped.
 */
const STOPPED_MS = 150;

/**
 * A light student: joins, receives every stream, and consumes again whenever a stream is published. It notes
 * when webcam packets arrive (sampled every {@link SAMPLE_EVERY_MS}) to tell when the webcam came back.
 */
export class TicketedStudent extends TicketedClient {
  student: LightStudent | null = null;
  #bornAt = 0;
  /** Sample times at which webcam packets had arrived since the previous sample, with their connection's birth. */
  readonly #arrivals: { at: number; born: number }[] = [];
  #counted = 0;
  readonly #sampler = setInterval(() => this.#sample(), SAMPLE_EVERY_MS);

  /** Webcam packets received on this connection. */
  get webcamPackets(): number {
    return this.student?.counts().webcamVideo?.received ?? 0;
  }

  /**
   * When webcam packets came again after `t` (performance.now()), or null: the first arrival on a connection
   * made after `t`, or the first one after `t` that ends a stop of at least {@link STOPPED_MS}.
   */
  webcamBackAfter(t: number): number | null {
    let previous = -Infinity;
    for (const { at, born } of this.#arrivals) {
      if (at > t && (born > t || (at - previous >= STOPPED_MS && at - t >= STOPPED_MS))) return at;
      previous = at;
    }
    return null;
  }

  override async close(): Promise<void> {
    clearInterval(this.#sampler);
    await super.close();
  }

  #sample(): void {
    const received = this.webcamPackets;
    if (received < this.#counted) this.#counted = 0; // a new connection counts from 0
    if (received > this.#counted) this.#arrivals.push({ at: performance.now(), born: this.#bornAt });
    if (this.#arrivals.length > 10_000) this.#arrivals.shift();
    this.#counted = received;
  }

  protected async join(socket: Socket): Promise<void> {
    const student = new LightStudent();
    this.student = student;
    this.#bornAt = performance.now();
    this.#counted = 0;
    await request(socket, 'joinRoom');
    const { transportId } = await request<{ transportId: string }>(socket, 'createConsumerTransport');
    const resumed = new Set<string>();
    const sync = async () => {
      // No offer without a stream: the first newProducer brings the first one.
      const { producers } = await request<{ producers: unknown[] }>(socket, 'getProducers');
      if (producers.length === 0 || this.student !== student) return;
      const offer = await request<{ sdp: string; consumers: ConsumerInfo[] }>(socket, 'consume', {
        transportId,
      });
      const kindByMid = new Map(offer.consumers.map((c) => [c.mid, c.producerKind]));
      const sdp = await student.answer(offer.sdp, kindByMid);
      await request(socket, 'connectConsumerTransport', { transportId, sdp });
      for (const { consumerId } of offer.consumers) {
        if (resumed.has(consumerId)) continue;
        resumed.add(consumerId);
        await request(socket, 'resume', { consumerId });
      }
    };
    // One negotiation at a time on this connection: a newProducer arriving during the first waits for it.
    const first = sync();
    let syncing = first.catch(() => {});
    socket.on('newProducer', () => {
      syncing = syncing
        .then(sync)
        .catch((error: unknown) => console.error('light student: consuming again failed', error));
    });
    await first;
  }

  protected async release(): Promise<void> {
    const student = this.student;
    this.student = null;
    await student?.close();
  }
}
