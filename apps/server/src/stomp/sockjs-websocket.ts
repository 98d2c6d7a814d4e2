import type { SocketHandler, SocketLink } from '../plugins/websocket.ts';
import { GO_AWAY, HEARTBEAT_FRAME, messageFrame, OPEN_FRAME, readMessages } from './sockjs-frames.ts';
import type { StompTransport } from './stomp-session-options.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The SockJS websocket transport (`/ws/{server}/{session}/websocket`): SockJS frames over one WebSocket. To the
 * sessions it is a STOMP transport whose bytes travel as SockJS messages; the socket's own queue is what counts as
 * buffered. A client sending something that is not SockJS framing is closed.
 */
export function sockJsWebSocket(
  link: SocketLink,
  options: { heartbeatMs: number; opened: (transport: StompTransport) => SocketHandler },
): SocketHandler {
  let open = true;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  const write = (frame: string): void => link.send(encoder.encode(frame));
  const stop = (): void => {
    open = false;
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
  };
  const transport: StompTransport = {
    send: (bytes) => {
      if (open) write(messageFrame([decoder.decode(bytes)]));
    },
    bufferedBytes: () => link.bufferedBytes(),
    close: () => {
      if (!open) return;
      stop();
      write(GO_AWAY);
      link.close();
    },
    terminate: () => {
      stop();
      link.terminate();
    },
  };
  write(OPEN_FRAME);
  heartbeat = setInterval(() => {
    if (open) write(HEARTBEAT_FRAME);
  }, options.heartbeatMs);
  heartbeat.unref();
  const handler = options.opened(transport);
  return {
    receive: (bytes) => {
      if (!open) return;
      const payload = decoder.decode(bytes);
      // An empty message carries nothing (the reference server skips it too).
      if (payload === '') return;
      const messages = readMessages(payload, 'single allowed');
      if (messages === null) return transport.close();
      for (const message of messages) if (open) handler.receive(encoder.encode(message));
    },
    closed: () => {
      stop();
      handler.closed();
    },
  };
}
