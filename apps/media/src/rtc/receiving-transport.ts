import type { ConsumerInfo, PreferredLayer } from '@sea/contract/live';
import type { Signal } from '../signal.ts';
import type { Producer } from './producer.ts';

/**
 * Why a receiving transport closed: on purpose or because its connection failed (`closed`), or because the
 * forwarding worker it lived in stopped (`workerLost`). The student's browser notices a failed connection itself,
 * but a lost worker only when ICE gives up (about 30 s in Chrome): the server has to tell it.
 */
export type ReceivingCloseReason = 'closed' | 'workerLost';

/**
 * A student's receiving connection as the signalling side sees it: a {@link ConsumerTransport} in this thread,
 * or a `RemoteConsumerTransport` whose connection lives in a forwarding worker. Refusals are `LiveError`s either
 * way.
 */
export interface ReceivingTransport {
  readonly id: string;
  /** Emitted once, with the reason, when the transport closes. */
  readonly closed: Signal<[reason: ReceivingCloseReason]>;
  /** Brings the connection up to date with `producers`; answers the offer and every current consumer. */
  consume(producers: Producer[]): Promise<{ sdp: string; consumers: ConsumerInfo[] }>;
  /** Applies the student's answer to the last offer. */
  connect(answerSdp: string): Promise<void>;
  /** Starts forwarding a consumer (video at the next keyframe). */
  resume(consumerId: string): Promise<void>;
  /** Stops forwarding a consumer until it is resumed (nothing of it is sent meanwhile). */
  pause(consumerId: string): Promise<void>;
  /** Fixes a consumer's layer, or `auto`. */
  setPreferredLayer(consumerId: string, layer: PreferredLayer): Promise<void>;
  /** Closes the connection. Idempotent. */
  close(): void;
}
