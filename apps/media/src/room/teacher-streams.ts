import type { ProducerInfo, StreamKind } from '@sea/contract/live';
import type { Producer } from '../rtc/producer.ts';

/** What the room does as the teacher's streams come and go (children never import their parent). */
export type TeacherStreamHooks = {
  /** A stream is published, before anybody is told of it (the session's recorder starts with it here). */
  published(producer: Producer): void;
  /** The current stream of a kind closed (not one a newer stream had replaced). */
  closed(info: ProducerInfo): void;
};

/** The streams the teacher publishes now, one per kind: a newer stream of a kind replaces the older. */
export class TeacherStreams {
  private readonly producers = new Map<StreamKind, Producer>();
  private readonly hooks: TeacherStreamHooks;

  constructor(hooks: TeacherStreamHooks) {
    this.hooks = hooks;
  }

  /** Takes a new stream of the teacher's; returns how the room's peers are told of it. */
  add(producer: Producer): ProducerInfo {
    const info = { producerId: producer.id, producerKind: producer.kind };
    this.producers.set(producer.kind, producer);
    this.hooks.published(producer);
    producer.closed.subscribe(() => {
      if (this.producers.get(producer.kind) !== producer) return;
      this.producers.delete(producer.kind);
      this.hooks.closed(info);
    });
    return info;
  }

  /** The streams currently published. */
  list(): ProducerInfo[] {
    return [...this.producers.values()].map((p) => ({ producerId: p.id, producerKind: p.kind }));
  }

  /** The producers themselves. */
  current(): Producer[] {
    return [...this.producers.values()];
  }

  /** Closes every stream (the room ended). */
  closeAll(): void {
    for (const producer of this.producers.values()) producer.close();
    this.producers.clear();
  }
}
