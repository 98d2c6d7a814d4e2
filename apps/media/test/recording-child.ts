// A media server recording a synthetic teacher's four streams into the folder given, until it is killed; with
// the object store's settings (JSON, as its S3 client takes them) the recording also goes up into the store.
import { RECORDINGS_AREA } from '@sea/service-kit/storage/recording-objects';
import { S3FileStore, s3Client } from '@sea/service-kit/storage/s3-file-store';
import type { S3Settings } from '@sea/service-kit/storage/storage-config';
import { teachingServer } from './teaching-server.ts';

const [dir, storeSettings] = process.argv.slice(2);
if (!dir) throw new Error('usage: recording-child.ts RECORDINGS_DIR [S3_SETTINGS_JSON]');
const settings = storeSettings ? (JSON.parse(storeSettings) as S3Settings) : null;
const setup = await teachingServer(
  0,
  ['webcamVideo', 'webcamAudio', 'screenShareVideo', 'screenShareAudio'],
  {
    recordingsDir: dir,
    screen: true,
    ...(settings && {
      recordingStore: new S3FileStore(s3Client(settings), settings.bucket, RECORDINGS_AREA),
    }),
  },
);
console.log(`recording ${setup.room.sessionKey}`);
// Kept alive until the test kills it (bounded: a forgotten child ends by itself).
setTimeout(() => process.exit(2), 60_000);
