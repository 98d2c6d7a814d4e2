import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, defaultInternalUrl, defaultNodeId, loadConfig, readMediaSecret } from './config.ts';
import { internalRoutes } from './internal-routes.ts';
import { MediaServer } from './media-server.ts';
import { NodeReporter } from './node-reporter.ts';
import { attachSignalling } from './signalling.ts';
import { createTicketVerifier } from './ticket.ts';

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
  let reporter: NodeReporter | null = null;
  const server = new MediaServer({
    rtc: {
      announcedIp: config.announcedIp,
      listenIp: config.listenIp,
      portRange: config.portRange,
      iceServers: config.iceServers,
    },
    teacherGraceMs: config.teacherGraceMs,
    // Reports start once the port (and so the node's name and address) is known; nothing opens before.
    reports: { changed: (closed) => reporter?.changed(closed) ?? Promise.resolve(false) },
    workers: config.workers,
    recordingsDir: config.recordingsDir,
  });
  const httpServer = http.createServer(internalRoutes({ secret, revoke: (r) => server.revoke(r) }));
  const signalling = attachSignalling(httpServer, {
    server,
    verifyTicket: createTicketVerifier(secret),
    publicUrl: config.publicUrl,
  });
  await new Promise<void>((resolve) => httpServer.listen(config.port, config.host, resolve));
  const { port } = httpServer.address() as AddressInfo;
  const nodeId = config.nodeId ?? defaultNodeId(port);
  const internalUrl = config.internalUrl ?? defaultInternalUrl(config.host, port);
  reporter = new NodeReporter({
    apiUrl: config.apiUrl,
    secret,
    nodeId,
    url: internalUrl,
    rooms: () => server.roomReports(),
    revoke: (revocation) => server.revoke(revocation),
  });
  reporter.start();
  console.log(
    `media: node ${nodeId}, signalling on http://${config.host}:${port}/server, media on ` +
      `${config.announcedIp}, ${config.workers} forwarding workers; reporting to ${config.apiUrl}`,
  );

  let closing = false;
  const close = async (why: string) => {
    if (closing) return;
    closing = true;
    console.log(`media: ${why}, closing`);
    setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
    await signalling.close(); // closes every room
    // The API server hears that every room closed (its sessions end, its classes stop being live), without
    // hanging on an API server that does not answer: its sweep ends them later then.
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
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
