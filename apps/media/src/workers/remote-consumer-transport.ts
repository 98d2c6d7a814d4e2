import { randomUUID } from 'node:crypto';
import type { ConsumerInfo, PreferredLayer } from '@sea/contract/live';
import { conflict } from '../live-error.ts';
import type { Producer } from '../rtc/producer.ts';
import type { ReceivingCloseReason, ReceivingTransport } from '../rtc/receiving-transport.ts';
import { unlessClosed } from '../rtc/unless-closed.ts';
import { Signal } from '../signal.ts';
import type { Call } from './messages.ts';

/** The part of a worker's handle a remote transport uses. */
export type TransportHost = {
  /** Sends a call about this transport to the worker; resolves with its answer, rejects with its refusal. */
  call(call: Call): Promise<unknown>;
  /** Makes sure the worker receives these streams' packets. */
  feed(producers: Producer[]): void;
  /** Closes the transport in the worker (nothing to do if the worker has stopped). */
  release(transportId: string): void;
};

const closedRefusal = () => conflict('수신 연결이 닫혔어요.');

/**
 * A student's receiving transport whose connection lives in a forwarding worker: each request is a call to the
 * worker, answered (or refused, with the same `LiveError`) as the {@link ConsumerTransport} there answers it, or
 * refused at once when the transport closes first (replaced, left, or its worker stopped).
 */
export class RemoteConsumerTransport implements ReceivingTransport {
  readonly id = randomUUID();
  readonly closed = new Signal<[reason: ReceivingCloseReason]>();
  private readonly host: TransportHost;
  private isClosed = false;

  constructor(host: TransportHost) {
    this.host = host;
  }

  async consume(producers: Producer[]): Promise<{ sdp: string; consumers: ConsumerInfo[] }> {
    if (this.isClosed) throw closedRefusal();
    const open = producers.filter((producer) => !producer.isClosedNow);
    this.host.feed(open);
    const streamIds = open.map((producer) => producer.id);
    return (await this.call({ op: 'consume', transportId: this.id, streamIds })) as {
      sdp: string;
      consumers: ConsumerInfo[];
    };
  }

  async connect(sdp: string): Promise<void> {
    await this.call({ op: 'connect', transportId: this.id, sdp });
  }

  async resume(consumerId: string): Promise<void> {
    await this.call({ op: 'resume', transportId: this.id, consumerId });
  }

  async pause(consumerId: string): Promise<void> {
    await this.call({ op: 'pause', transportId: this.id, consumerId });
  }

  async setPreferredLayer(consumerId: string, layer: PreferredLayer): Promise<void> {
    await this.call({ op: 'setPreferredLayer', transportId: this.id, consumerId, layer });
  }

  get isClosedNow(): boolean {
    return this.isClosed;
  }

  close(): void {
    if (this.isClosed) return;
    // The worker closes the transport before it hears that streams this transport used are no longer fed.
    this.host.release(this.id);
    this.ended();
  }

  private call(call: Call): Promise<unknown> {
    if (this.isClosed) return Promise.reject(closedRefusal());
    return unlessClosed(this, this.host.call(call), closedRefusal);
  }

  /** The transport closed in the worker (its connection failed), or the worker stopped (`workerLost`). */
  ended(reason: ReceivingCloseReason = 'closed'): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.closed.emit(reason);
    this.closed.clear();
  }
}
