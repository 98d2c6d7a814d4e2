import type { LiveTicketClaims } from '@sea/contract/live-ticket';
import type { MediaServer } from './media-server.ts';
import { notInRoom, forbidden } from './live-error.ts';
import type { Notify, Peer } from './peer.ts';
import type { Room } from './room/room.ts';

/**
 * One signalling connection: who it is (the ticket's claims), how to reach its client, and the peer it became
 * in a room. Handlers work on a session; only `signalling.ts` knows it is a socket.io socket.
 */
export class Session {
  readonly claims: LiveTicketClaims;
  readonly server: MediaServer;
  readonly notify: Notify;
  /** Closes the client's connection (after a refusal, a replacement or the end of the room). */
  readonly disconnect: () => void;
  /**
   * Drops the client's connection as a network failure would, so that the client reconnects at once and enters
   * the room again (after its media connection was lost on the server's side).
   */
  readonly reconnect: () => void;
  private current: { peer: Peer; room: Room } | null = null;
  private release: (() => void) | null = null;

  constructor(
    claims: LiveTicketClaims,
    server: MediaServer,
    notify: Notify,
    connection: { disconnect: () => void; reconnect: () => void },
  ) {
    this.claims = claims;
    this.server = server;
    this.notify = notify;
    this.disconnect = connection.disconnect;
    this.reconnect = connection.reconnect;
  }

  /**
   * Binds the session to a new peer and lets `start` put it in the room; the client is disconnected when the
   * peer is closed from the server side (made to reconnect when its media was lost there, or the node stops). A previous peer of this session (starting or joining again on the same
   * connection) is released first and closed after `start`, so the room sees a replacement, not a leave.
   */
  enter(peer: Peer, room: Room, start: () => void): void {
    const previous = this.current;
    this.release?.();
    this.current = { peer, room };
    this.release = peer.closed.subscribe((reason) => {
      if (this.current?.peer === peer) this.current = null;
      if (['replaced', 'roomClosed', 'removed'].includes(reason)) this.disconnect();
      if (reason === 'mediaLost') this.reconnect();
      // The node stops, the class does not: the client hears why, then its connection drops as in an outage,
      // so it reconnects (with a fresh ticket, to a node that runs) instead of leaving the room.
      if (reason === 'shutdown') {
        this.notify('nodeStopped', {});
        this.reconnect();
      }
    });
    start();
    peer.log.info('entered the room');
    previous?.peer.close('left');
  }

  /** The peer this connection entered a room as, while it is open. */
  get peer(): Peer | null {
    return this.current?.peer ?? null;
  }

  /** The peer and room, or `notInRoom`. */
  inRoom(): { peer: Peer; room: Room } {
    if (!this.current || this.current.peer.isClosedNow) throw notInRoom();
    return this.current;
  }

  /** The teacher's peer and room, or `forbidden` / `notInRoom`. */
  asTeacher(): { peer: Peer; room: Room } {
    if (this.claims.role !== 'teacher') throw forbidden('강사만 할 수 있어요.');
    return this.inRoom();
  }

  /** The student's peer and room, or `forbidden` / `notInRoom`. */
  asStudent(): { peer: Peer; room: Room } {
    if (this.claims.role !== 'student') throw forbidden('수강생만 할 수 있어요.');
    return this.inRoom();
  }

  /** The connection ended: on purpose (`explicit`) or by a network failure. */
  end(explicit: boolean): void {
    this.current?.peer.close(explicit ? 'left' : 'disconnected');
    this.current = null;
  }
}
