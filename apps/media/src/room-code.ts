/**
 * The rooms' code: what forwards and records media (werift, and all that uses it) and the handlers of the
 * signalling requests. The media service loads it with its first connection (`MediaServer.loadRooms`), not at
 * its start: an idle node holds none of it (werift alone is some 38 MB; issue 34, light servers).
 */
export { REQUEST_HANDLERS } from './handlers/request-handlers.ts';
export { SessionRecorder } from './recording/session-recorder.ts';
export { Room } from './room/room.ts';
export { ConsumerTransport } from './rtc/consumer-transport.ts';
