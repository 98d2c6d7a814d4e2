import { afterEach, beforeEach } from 'vitest';
import { joinStudent, negotiate, publishTeacher, resumeAll, type Closers } from './synthetic-class.ts';
import { ok, startTestMedia, until } from './test-media-server.ts';

type Media = Awaited<ReturnType<typeof startTestMedia>>;

/**
 * One class across two media nodes, new for each test of the file that calls this: node A (the origin) with
 * the teacher, node B (an edge) whose students' tickets name A; B pulls the class from A once and serves its
 * own students from it. Both run forwarding workers, as the service does; the edge's grace period fits a
 * teacher's return. A test takes what it uses at its start (`const { origin, publish } = relay;`). The origin
 * records into `originRecordingsDir()` when given (a small disk the test fills), else a folder of its own.
 */
export function relayNodes(options: { originRecordingsDir?: () => string } = {}) {
  const closers: Closers = [];
  let nodes: { origin: Media; edge: Media } | null = null;
  const current = () => {
    if (!nodes) throw new Error('the relay nodes start before each test');
    return nodes;
  };
  beforeEach(async () => {
    const origin = await startTestMedia({
      nodeId: 'node-a',
      workers: 2,
      recordingsDir: options.originRecordingsDir?.(),
    });
    const edge = await startTestMedia({ nodeId: 'node-b', workers: 2, teacherGraceMs: 5_000 });
    nodes = { origin, edge };
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await current().edge.close();
    await current().origin.close();
    nodes = null;
  });

  /** A light student on `media` (an edge, when `originUrl` is given), once the four streams are published there. */
  const watchOn = async (media: Media, n: number, originUrl?: string) => {
    const { socket, student, transportId } = await joinStudent(media, closers, n, originUrl);
    // The edge publishes the streams as they arrive from the origin: renegotiate until all four are there.
    await until(
      async () => {
        const { producers } = await ok(socket, 'getProducers');
        return producers.length === 4;
      },
      10_000,
      'the four streams on the edge',
    );
    const consumers = await negotiate(socket, student, transportId);
    await resumeAll(socket, consumers);
    return { socket, student, consumers, transportId };
  };

  return {
    /** What the test opened besides the two nodes, closed at its end. */
    closers,
    get origin(): Media {
      return current().origin;
    },
    get edge(): Media {
      return current().edge;
    },
    /** The teacher on `media` publishes all four streams. */
    publish: (media: Media) => publishTeacher(media, closers, { screen: true }),
    watchOn,
    /** A light student on the edge (a ticket naming the origin), receiving whatever is published. */
    watchOnEdge: (n: number) => watchOn(current().edge, n, current().origin.url),
  };
}
