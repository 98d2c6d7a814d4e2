/// <reference lib="dom" />
// Code inside addInitScript and page.evaluate runs in the browser and uses its globals.
import type { BrowserContext, Page } from 'playwright-core';

const KEY = '__seaRelayOnlyConnections';

/**
 * Makes every page of `context` use TURN relays only, as `iceTransportPolicy: 'relay'` tells a browser to
 * (a student behind a network that lets nothing else through), and keep its peer connections for the stats.
 * The app is unchanged: it gets a real RTCPeerConnection, with the policy set.
 */
export async function relayOnly(context: BrowserContext): Promise<void> {
  await context.addInitScript((key: string) => {
    const Native = window.RTCPeerConnection;
    const created: RTCPeerConnection[] = [];
    class RelayOnly extends Native {
      constructor(configuration?: RTCConfiguration) {
        super({ ...configuration, iceTransportPolicy: 'relay' });
        created.push(this);
      }
    }
    Object.defineProperty(window, key, { value: created });
    window.RTCPeerConnection = RelayOnly;
  }, KEY);
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
