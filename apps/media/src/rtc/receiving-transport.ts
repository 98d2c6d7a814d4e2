import type { ConsumerInfo, PreferredLayer } from '@sea/contract/live';
import type { Signal } from '../signal.ts';
import type { Producer } from './producer.ts';

/**
 * A student's receiving connection as the signalling side sees it: a {@link ConsumerTransport} in this thread,
 * or a `RemoteConsumerTransport` whose connection lives in a forwarding worker. Refusals are `LiveError`s either
 * way.
 */
export interface ReceivingTransport {
  readonly id: string;
  /** Emitted once when the transport closes (closed here, or its connection failed). */
  readonly closed: Signal;
  /** Brings the connection up to date with `producers`; answers the offer and every current consumer. */
  consume(producers: Producer[]): Promise<{ sdp: string; consumers: ConsumerInfo[] }>;
  /** Applies the student's answer to the last offer. */
  connect(answerSdp: string): Promise<void>;
  /** Starts forwarding a consumer (video at the next keyframe). */
  resume(consumerId: string): Promise<void>;
  /** Fixes a consumer's layer, or `auto`. */
  setPreferredLayer(consumerId: string, layer: PreferredLayer): Promise<void>;
  /** Closes the connection. Idempotent. */
  close(): void;
}
