import WebSocket from 'ws';
import {
  encodeFrame,
  frameText,
  stompFrame,
  type StompFrame,
} from '../../apps/server/src/stomp/stomp-frame.ts';
import { StompParser } from '../../apps/server/src/stomp/stomp-parser.ts';

/**
 * A bare STOMP client for the benchmark: the project's own codec over `ws`, so that a thousand clients in one
 * load-generating thread cost little and the figures measure the server.
 */
export class RawStomp {
  readonly #ws: WebSocket;
  readonly #parser = new StompParser({ maxFrameBytes: 1024 * 1024 });
  onFrame: (frame: StompFrame) => void = () => undefined;
  closed = false;

  constructor(url: string) {
    this.#ws = new WebSocket(url, { perMessageDeflate: false });
    this.#ws.on('message', (data: Buffer) => {
      for (const event of this.#parser.push(data)) if (event.type === 'frame') this.onFrame(event.frame);
    });
    this.#ws.on('close', () => (this.closed = true));
    this.#ws.on('error', () => (this.closed = true));
  }

  /** Opens the socket and completes CONNECT (no heart-beats: the benchmark runs for seconds). */
  connect(token: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.onFrame = (frame) => {
        if (frame.command === 'CONNECTED') resolve();
        else reject(new Error(`CONNECT answered ${frame.command}: ${frameText(frame)}`));
      };
      this.#ws.once('open', () =>
        this.send(
          stompFrame('CONNECT', {
            'accept-version': '1.2',
            'heart-beat': '0,0',
            Authorization: `Bearer ${token}`,
          }),
        ),
      );
      this.#ws.once('error', reject);
    });
  }

  send(frame: StompFrame): void {
    this.#ws.send(encodeFrame(frame), { binary: false });
  }

  close(): void {
    this.#ws.terminate();
  }
}
