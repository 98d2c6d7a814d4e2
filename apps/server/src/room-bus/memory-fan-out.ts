import type { FanOut, FanOutTarget, RoomEvent } from './room-ports.ts';

/** Fan-out of a single server process: every event goes straight to this process's subscribers. */
export class MemoryFanOut implements FanOut {
  readonly #target: FanOutTarget;

  constructor(target: FanOutTarget) {
    this.#target = target;
  }

  publishEvent(event: RoomEvent): void {
    this.#target.deliverEvent(event);
  }

  announce(): void {
    // There is no other instance to tell.
  }

  async close(): Promise<void> {
    // Nothing to release: there is no connection.
  }
}
