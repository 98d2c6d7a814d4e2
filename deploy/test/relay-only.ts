/// <reference lib="dom" />
// Code inside addInitScript and page.evaluate runs in the browser and uses its globals.
import type { BrowserContext, Page } from 'playwright-core';

const KEY = '__seaRelayOnlyConnections';

/**
 * Makes every page of `context` use TURN relays only, as `iceTransportPolicy: 'relay'` tells a browser to
 * (a student behind a network that lets nothing else through), and keep its peer connections for the stats.
 * With `urls` (a regular expression's source), only the ICE server URLs it matches are kept: `^turns:` leaves
 * the browser TURN over TLS alone, as a network that lets only TLS out would. The app is unchanged: it gets a
 * real RTCPeerConnection, with the policy set.
 */
export async function relayOnly(context: BrowserContext, urls = ''): Promise<void> {
  await context.addInitScript(
    ({ key, pattern }: { key: string; pattern: string }) => {
      const Native = window.RTCPeerConnection;
      const created: RTCPeerConnection[] = [];
      const kept = new RegExp(pattern);
      const narrowed = (servers: RTCIceServer[] = []): RTCIceServer[] =>
        servers
          .map((server) => ({ ...server, urls: [server.urls].flat().filter((url) => kept.test(url)) }))
          .filter((server) => server.urls.length > 0);
      class RelayOnly extends Native {
        constructor(configuration?: RTCConfiguration) {
          super({
            ...configuration,
            iceServers: narrowed(configuration?.iceServers),
            iceTransportPolicy: 'relay',
          });
          created.push(this);
        }
      }
      Object.defineProperty(window, key, { value: created });
      window.RTCPeerConnection = RelayOnly;
    },
    { key: KEY, pattern: urls },
  );
}

/** Per connected peer connection: the selected pair's local and remote candidate types, and video decoded. */
export type RelayFigures = { local: string; remote: string; relayProtocol: string; framesDecoded: number }[];

export function relayFigures(page: Page): Promise<RelayFigures> {
  return page.evaluate(async (key: string) => {
    const all = (window as unknown as Record<string, RTCPeerConnection[]>)[key] ?? [];
    const figures: { local: string; remote: string; relayProtocol: string; framesDecoded: number }[] = [];
    for (const pc of all.filter((connection) => connection.connectionState === 'connected')) {
      const entries = new Map<string, Record<string, unknown>>();
      (await pc.getStats()).forEach((entry: Record<string, unknown>) => entries.set(String(entry.id), entry));
      let framesDecoded = 0;
      for (const entry of entries.values()) {
        if (entry.type === 'inbound-rtp' && entry.kind === 'video')
          framesDecoded += Number(entry.framesDecoded ?? 0);
      }
      for (const entry of entries.values()) {
        if (entry.type !== 'transport') continue;
        const pair = entries.get(String(entry.selectedCandidatePairId));
        const local = entries.get(String(pair?.localCandidateId));
        const remote = entries.get(String(pair?.remoteCandidateId));
        figures.push({
          local: String(local?.candidateType),
          remote: String(remote?.candidateType),
          relayProtocol: String(local?.relayProtocol),
          framesDecoded,
        });
      }
    }
    return figures;
  }, KEY);
}

/**
 * What every peer connection of `page` is doing, for a failure's message: its states, and per inbound and
 * outbound RTP stream the packets, frames and keyframe requests so far.
 */
export function connectionsReport(page: Page): Promise<string> {
  return page.evaluate(async (key: string) => {
    const all = (window as unknown as Record<string, RTCPeerConnection[]>)[key] ?? [];
    const lines: string[] = [];
    for (const [index, pc] of all.entries()) {
      lines.push(
        `pc ${index}: ${pc.connectionState}, ice ${pc.iceConnectionState}, signaling ${pc.signalingState}`,
      );
      (await pc.getStats()).forEach((entry: Record<string, unknown>) => {
        if (entry.type === 'inbound-rtp' || entry.type === 'outbound-rtp') {
          const fields = [
            'kind',
            'packetsReceived',
            'packetsSent',
            'framesDecoded',
            'framesEncoded',
            'keyFramesDecoded',
            'pliCount',
            'firCount',
            'nackCount',
          ];
          lines.push(
            `  ${String(entry.type)} ${fields
              .filter((f) => f in entry)
              .map((f) => `${f}=${String(entry[f])}`)
              .join(' ')}`,
          );
        }
        if (entry.type === 'candidate-pair' && entry.nominated) {
          lines.push(
            `  pair ${String(entry.state)} sent=${String(entry.bytesSent)} received=${String(entry.bytesReceived)}`,
          );
        }
      });
    }
    return lines.length > 0 ? lines.join('\n') : 'no peer connection';
  }, KEY);
}
