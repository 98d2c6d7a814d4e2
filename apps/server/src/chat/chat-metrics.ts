import { Counter, Gauge, type Registry } from 'prom-client';

/** What the chat tells the metrics as it happens; the STOMP sessions and the delivery call it. */
export type ChatMeter = {
  /** A SEND was accepted (stored and published to the room). */
  messageAccepted(): void;
  /** MESSAGE frames handed to subscribers' sockets. */
  delivered(frames: number): void;
  /** A frame was refused: a SEND with the refusal's code, or any frame answered with ERROR (`error`). */
  refused(reason: string): void;
};

/** The meter of a broker or session built without metrics (unit tests, benchmarks). */
export const NO_CHAT_METER: ChatMeter = {
  messageAccepted: () => undefined,
  delivered: () => undefined,
  refused: () => undefined,
};

/** What the chat holds now, read when the metrics are scraped. */
export type ChatGauges = { connections: () => number; subscriptions: () => number };

/**
 * The chat's metrics on `registry`: open STOMP connections and subscriptions (read at each scrape), and
 * counters of accepted messages, deliveries and refused frames. Returns the meter the chat reports to.
 */
export function chatMetrics(registry: Registry, gauges: ChatGauges): ChatMeter {
  const registers = [registry];
  new Gauge({
    name: 'chat_connections',
    help: 'Open chat connections (STOMP sessions over WebSocket or SockJS)',
    registers,
    collect() {
      this.set(gauges.connections());
    },
  });
  new Gauge({
    name: 'chat_subscriptions',
    help: 'Live subscriptions to room topics',
    registers,
    collect() {
      this.set(gauges.subscriptions());
    },
  });
  const messages = new Counter({
    name: 'chat_messages_total',
    help: 'Chat messages accepted from clients (SEND frames stored and published)',
    registers,
  });
  const deliveries = new Counter({
    name: 'chat_deliveries_total',
    help: 'MESSAGE frames handed to subscribers of this server',
    registers,
  });
  const refused = new Counter({
    name: 'chat_refused_frames_total',
    help: 'Frames refused: SENDs by refusal code, frames answered with ERROR as reason="error"',
    labelNames: ['reason'],
    registers,
  });
  return {
    messageAccepted: () => messages.inc(),
    delivered: (frames) => deliveries.inc(frames),
    refused: (reason) => refused.inc({ reason }),
  };
}
