import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig, readMediaSecret } from './config.ts';
import { HttpLiveStateClient } from './live-state-client.ts';
import { MediaServer } from './media-server.ts';
import { attachSignalling } from './signalling.ts';
import { createTicketVerifier } from './ticket.ts';

/** Process entry: configuration, the media server, signalling on HTTP, graceful close on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  const secret = await readMediaSecret(config);
  const liveState = new HttpLiveStateClient({ apiUrl: config.apiUrl, secret });
  const server = new MediaServer({
    rtc: {
      announcedIp: config.announcedIp,
      listenIp: config.listenIp,
      portRange: config.portRange,
      iceServers: config.iceServers,
    },
    teacherGraceMs: config.teacherGraceMs,
    liveState,
    workers: config.workers,
  });
  const httpServer = http.createServer((request, response) => {
    // Only socket.io is served; a plain GET answers a health check.
    response.writeHead(request.url === '/health' ? 200 : 404, { 'content-type': 'text/plain' }).end();
  });
  const signalling = attachSignalling(httpServer, {
    server,
    verifyTicket: createTicketVerifier(secret),
    publicUrl: config.publicUrl,
  });
  await new Promise<void>((resolve) => httpServer.listen(config.port, config.host, resolve));
  const { port } = httpServer.address() as AddressInfo;
  console.log(
    `media: signalling on http://${config.host}:${port}/server, media on ${config.announcedIp}, ` +
      `${config.workers} forwarding workers`,
  );

  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`media: ${signal}, closing`);
    await signalling.close(); // closes every room: classes are reported not live
    // Give the "not live" reports a moment, without hanging on an unreachable API server.
    await Promise.race([liveState.settled(), new Promise((resolve) => setTimeout(resolve, 3_000))]);
    liveState.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
