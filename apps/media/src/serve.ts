import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { RECORDINGS_AREA } from '@sea/service-kit/storage/recording-objects';
import type { StorageConfig } from '@sea/service-kit/storage/storage-config';
import { apiReadiness } from './api-readiness.ts';
import { leftRecordings, uploadLeftovers } from './recording/recording-upload.ts';
import { ConfigError, defaultInternalUrl, defaultNodeId, loadConfig, readMediaSecret } from './config.ts';
import { internalRoutes } from './internal-routes.ts';
import { log } from './log.ts';
import { mediaMetrics } from './media-metrics.ts';
import { MediaServer } from './media-server.ts';
import { NodeReporter } from './node-reporter.ts';
import type { FindOrigin } from './registry/origin-finder.ts';
import { attachSignalling } from './signalling.ts';
import { createTicketVerifier, UsedTickets } from './ticket.ts';

/** How long the last report (every room closed) may take at shutdown. */
const FINAL_REPORT_MS = 3_000;
/** The longest a stop may take, whatever hangs. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

// A stdout or stderr nobody reads any more (EPIPE) must not crash the service: its lines are lost anyway.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

/**
 * Process entry: configuration, the media server, signalling and the internal routes on HTTP, reports to the
 * API server, graceful close on SIGINT/SIGTERM (or when the `npm start` process that spawned it is gone).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const secret = await readMediaSecret(config);
  // Several nodes (REDIS_URL): the registry, the shared used tickets and the pulls from an origin, with ioredis
  // and socket.io-client, are loaded only then; a single node (`npm start`) does without them (issue 34, light
  // servers: 9 MB of an idle media service, bench/api/idle-memory.ts).
  const cluster = config.redisUrl
    ? {
        url: config.redisUrl,
        ...(await import('./registry/redis-used-tickets.ts')),
        ...(await import('./registry/registry-heartbeat.ts')),
        ...(await import('./relay/origin-pull.ts')),
      }
    : null;
  let reporter: NodeReporter | null = null;
  const rtc = {
    announcedIp: config.announcedIp,
    listenIp: config.listenIp,
    portRange: config.portRange,
    iceServers: config.iceServers,
  };
  // Known once the port is: the node's name (an edge's relay on an origin is named after it), and where an edge
  // room that lost its origin finds the new one (the registry, with REDIS_URL).
  let nodeId = config.nodeId ?? '';
  let findOrigin: FindOrigin | undefined = undefined;
  const recordingStore = await openRecordingStore(config.storage);
  // Recordings this node left on its disk when it died go up before anything else is recorded.
  const leftovers = recordingStore ? await leftRecordings(config.recordingsDir) : [];
  const server = new MediaServer({
    rtc,
    teacherGraceMs: config.teacherGraceMs,
    // Reports start once the port (and so the node's name and address) is known; nothing opens before.
    reports: {
      changed: (closed) => reporter?.changed(closed) ?? Promise.resolve(false),
      studentsChanged: () => reporter?.studentsChanged(),
    },
    workers: config.workers,
    capacity: config.capacity,
    // With several nodes (REDIS_URL) this node may be an edge of a class whose teacher is on another node.
    pullOrigin: cluster
      ? (room, origin) =>
          cluster.originPuller({ secret, nodeId, rtc, findOrigin, followForMs: config.teacherGraceMs })(
            room,
            origin,
          )
      : undefined,
    recordingsDir: config.recordingsDir,
    recordingStore,
  });
  const httpServer = http.createServer(
    internalRoutes({
      secret,
      revoke: (r) => server.revoke(r),
      metrics: { registry: mediaMetrics(server), allow: config.metricsAllow },
      ready: apiReadiness(config.apiUrl),
    }),
  );
  const signalling = attachSignalling(httpServer, {
    server,
    // With several nodes a ticket must open one connection on one node: the nodes share the used tickets.
    verifyTicket: createTicketVerifier(
      secret,
      cluster ? new cluster.RedisUsedTickets(cluster.url) : new UsedTickets(),
    ),
    publicUrl: config.publicUrl,
  });
  await new Promise<void>((resolve) => httpServer.listen(config.port, config.host, resolve));
  if (recordingStore && leftovers.length > 0)
    void uploadLeftovers(recordingStore, config.recordingsDir, leftovers);
  const { port } = httpServer.address() as AddressInfo;
  nodeId = config.nodeId ?? defaultNodeId(port);
  const internalUrl = config.internalUrl ?? defaultInternalUrl(config.host, port);
  const mediaUrl = config.mediaUrl ?? `http://${config.announcedIp}:${port}`;
  const registry = cluster
    ? new cluster.RegistryHeartbeat({
        url: cluster.url,
        entry: () => ({
          nodeId,
          mediaUrl,
          capacity: config.capacity,
          load: server.studentCount,
          ...server.classes(),
        }),
      })
    : null;
  findOrigin = registry?.originFinder(mediaUrl);
  server.changed.subscribe(() => registry?.changed());
  registry?.start();
  reporter = new NodeReporter({
    apiUrl: config.apiUrl,
    secret,
    nodeId,
    url: internalUrl,
    rooms: () => server.roomReports(),
    edges: () => server.edgeReports(),
    revoke: (revocation) => server.revoke(revocation),
  });
  reporter.start();
  log.info(
    {
      nodeId,
      signalling: `http://${config.host}:${port}/server`,
      announcedIp: config.announcedIp,
      workers: config.workers,
      capacity: config.capacity,
      apiUrl: config.apiUrl,
      registeredAs: registry ? mediaUrl : null,
    },
    'media service started',
  );

  let closing = false;
  const close = async (why: string) => {
    if (closing) return;
    closing = true;
    log.info({ reason: why }, 'closing');
    setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
    // With other nodes running, the lectures go on there: their sessions are handed over, not ended.
    server.handover = (await registry?.othersRunning()) ?? false;
    // Out of the registry first: the peers told to reconnect next get tickets that name another node.
    await registry?.close();
    await signalling.close(); // every peer hears `nodeStopped`; every room closes
    // The API server hears that every room closed (its sessions end, its classes stop being live; handed over,
    // they wait for their teachers' rooms elsewhere), without hanging on an API server that does not answer:
    // its sweep ends them later then.
    await reporter?.flush(FINAL_REPORT_MS);
    reporter?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
  // Started by `npm start` with an IPC channel: when that parent is gone (even killed), stop too.
  if (process.channel) {
    process.channel.unref();
    process.once('disconnect', () => void close('parent process gone'));
  }
}

main().catch((error: unknown) => {
  // A configuration problem is a message for a person, written as it is; anything else is a crash.
  if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
  else log.fatal({ err: error }, 'the media service failed to start');
  process.exit(1);
});

/**
 * The object store's recordings with STORAGE=s3 (its SDK loaded only then, as in the API server), else none:
 * the API server reads them from RECORDINGS_DIR, the same folder on the same machine.
 */
async function openRecordingStore(storage: StorageConfig): Promise<FileStore | null> {
  if (storage.kind === 'local') return null;
  const { S3FileStore, s3Client } = await import('@sea/service-kit/storage/s3-file-store');
  return new S3FileStore(s3Client(storage), storage.bucket, RECORDINGS_AREA);
}
