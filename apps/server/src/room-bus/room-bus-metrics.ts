import { Counter, Gauge, type Registry } from 'prom-client';
import type { StompMeter } from '../stomp/stomp-ports.ts';

/** What the room bus holds now, read when the metrics are scraped. */
export type RoomBusGauges = { connections: () => number; subscriptions: () => number };

/**
 * The room bus's metrics on `registry` (named `chat_*`, as dashboards know them): open STOMP connections and
 * subscriptions (read at each scrape), and counters of accepted SENDs, deliveries and refused frames. Returns
 * the meter the sessions and the delivery report to.
 */
export function roomBusMetrics(registry: Registry, gauges: RoomBusGauges): StompMeter {
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
