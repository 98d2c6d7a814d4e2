// A media server recording a synthetic teacher's four streams into the folder given, until it is killed.
import { teachingServer } from './teaching-server.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: recording-child.ts RECORDINGS_DIR');
const setup = await teachingServer(
  0,
  ['webcamVideo', 'webcamAudio', 'screenShareVideo', 'screenShareAudio'],
  { recordingsDir: dir, screen: true },
);
console.log(`recording ${setup.room.sessionKey}`);
// Kept alive until the test kills it (bounded: a forgotten child ends by itself).
setTimeout(() => process.exit(2), 60_000);
