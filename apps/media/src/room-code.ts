/**
 * The rooms' code: what forwards and records media (werift, and all that uses it). The media service loads it
 * with its first connection (`MediaServer.loadRooms`, awaited by signalling with the requests' handlers), not
 * at its start: an idle node holds none of it (werift alone is some 38 MB; issue 34, light servers).
 */
export { SessionRecorder } from './recording/session-recorder.ts';
export { Room } from './room/room.ts';
export { ConsumerTransport } from './rtc/consumer-transport.ts';
export { warmUpOffers } from './rtc/offer-warm-up.ts';
