// `npm run storage:migrate`: copies the files of a local-disk installation (uploaded images, materials,
// replays) into the object store that STORAGE=s3 and S3_* name, checking each copy's size and checksum. Safe
// to run twice and to interrupt: what is already there and checked is not copied again. The local files stay;
// start the servers with STORAGE=s3 once it has finished. Raw recordings stay on the local disk (the replay job
// reads them there).
import { ConfigError, loadConfig } from '../apps/server/src/config.ts';
import { localFolders, openFileStores } from '../apps/server/src/storage/file-stores.ts';
import { LocalFileStore } from '@sea/service-kit/storage/local-file-store';
import { migrateFiles } from '../apps/server/src/storage/migrate-files.ts';
import { PART_BYTES } from '@sea/service-kit/storage/s3-file-store';
import { isServedKey } from '../apps/server/src/storage/storage.ts';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}
if (config.storage.kind !== 's3') {
  fail(
    'STORAGE=s3 와 S3_* 설정으로 옮길 버킷을 알려 주세요 (STORAGE=s3 and S3_* name the bucket to copy into).',
  );
}
const folders = localFolders(config);
const stores = await openFileStores(config);
const started = Date.now();
try {
  const tally = await migrateFiles(
    [
      { name: 'uploads', from: new LocalFileStore(folders.uploads), to: stores.uploads, keeps: isServedKey },
      {
        name: 'materials',
        from: new LocalFileStore(folders.materials),
        to: stores.materials,
        keeps: (key) => key.startsWith('materials/'),
      },
      // Finished replays only: `{id}.part-*` folders are attempts that never finished.
      {
        name: 'replays',
        from: new LocalFileStore(folders.replays),
        to: stores.replays,
        keeps: (key) => /^\d+\//.test(key),
      },
    ],
    PART_BYTES,
    (line) => process.stdout.write(`${line}\n`),
  );
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `끝났어요: ${tally.copied}개 옮김, ${tally.present}개는 이미 있었어요 (${tally.bytes} bytes, ${seconds} s).\n`,
  );
} catch (error) {
  fail(
    `옮기지 못했어요 (다시 실행하면 이어서 옮겨요): ${error instanceof Error ? error.message : String(error)}`,
  );
} finally {
  stores.close();
}
