import { io as connectClient, type Socket } from 'socket.io-client';
import { LIVE_SOCKET_PATH } from '@sea/contract/live';

/**
 * A socket.io client of a media service as the web app opens it, but without reconnecting (the test watches how
 * it was dropped, or tries a used ticket again); resolves once connected, rejects with the refusal. `opened`
 * gets the socket at once, to disconnect it at the end.
 */
export async function connectLive(
  url: string,
  ticket: string,
  opened: (socket: Socket) => void,
): Promise<Socket> {
  const socket = connectClient(url, {
    path: LIVE_SOCKET_PATH,
    transports: ['websocket'],
    auth: { ticket },
    reconnection: false,
    forceNew: true,
  });
  opened(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}
