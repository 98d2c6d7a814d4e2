import type { FastifyInstance } from 'fastify';
import { MEDIA_NODE_REPORT_INTERVAL_MS } from '@sea/contract/media-nodes';
import { mediaNodeRoutes } from './media-node-routes.ts';
import { MediaNodes, NODE_WATCH_MS } from './media-nodes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The media nodes: revocations sent to them, sweeps of silent ones. */
    mediaNodes: MediaNodes;
  }
}

/** How long after start the server warns that no media node has reported. */
const NO_NODE_WARNING_MS = 30_000;

/**
 * Media nodes: their reports (route), the revocations sent to them when a membership ends (a class deleted,
 * an enrolment ended, a user withdrawn: app.events), and the live state's reconciliation. When the server is
 * ready it reconciles the live state (MediaNodes.reconcileAtStart), then sweeps silent nodes every report
 * interval, watches every second for nodes whose process is gone (MediaNodes.watch), and says once if no node has reported 30 s after start.
 */
export async function registerMediaNodes(app: FastifyInstance): Promise<void> {
  const nodes = new MediaNodes({
    db: app.db,
    secret: app.config.mediaSecret,
    log: app.log,
    events: app.events,
  });
  app.decorate('mediaNodes', nodes);
  await app.register(mediaNodeRoutes);
  // Ended memberships: the nodes are told without holding up the route (a node may take 2 s to answer).
  app.events.on('classDeleted', ({ classId }) => void nodes.classDeleted(classId));
  app.events.on('enrolmentEnded', ({ classId, userId }) => void nodes.enrolmentEnded(classId, userId));
  app.events.on('userWithdrawn', ({ userId }) => void nodes.userWithdrawn(userId));

  const timers: NodeJS.Timeout[] = [];
  app.addHook('onReady', async () => {
    try {
      await nodes.reconcileAtStart();
    } catch (error) {
      // The server still starts; the sweeps catch up on silent nodes.
      app.log.error({ err: error }, 'reconciling the live state at start failed');
    }
    const interval = setInterval(() => {
      // A failed sweep is tried again at the next interval.
      nodes.sweep().catch((error: unknown) => app.log.warn({ err: error }, 'sweeping media nodes failed'));
    }, MEDIA_NODE_REPORT_INTERVAL_MS);
    // A crashed node refuses connections at once: its classes stop being live within a second or two.
    const watch = setInterval(() => void nodes.watch(), NODE_WATCH_MS);
    const warning = setTimeout(() => {
      nodes.anyFresh().then(
        (any) => {
          if (any) return;
          app.log.warn(
            `no media service has reported within ${NO_NODE_WARNING_MS / 1000} s, so no class can go live: ` +
              `start it with API_URL set to this server's address (port ${app.config.port}) and the same ` +
              `MEDIA_SECRET (browsers are sent to MEDIA_URL=${app.config.mediaUrl})`,
          );
        },
        (error: unknown) => app.log.warn({ err: error }, 'checking for media nodes failed'),
      );
    }, NO_NODE_WARNING_MS);
    for (const timer of [interval, watch, warning]) {
      timer.unref();
      timers.push(timer);
    }
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer);
  });
}
