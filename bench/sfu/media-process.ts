// The media service under test, in its own process so its CPU time can be read alone: signalling on a free
// loopback port, media on 127.0.0.1, MEDIA_WORKERS forwarding workers (default as the service's).
// Prints `READY <url>` and runs until SIGTERM.
import { defaultWorkers } from '../../apps/media/src/config.ts';
import { startTestMedia } from '../../apps/media/test/test-media-server.ts';

const workers = Number(process.env.MEDIA_WORKERS ?? defaultWorkers());
const media = await startTestMedia({ teacherGraceMs: 60_000, workers });
process.stdout.write(`READY ${media.url}\n`);
process.on('SIGTERM', () => {
  void media.close().then(() => process.exit(0));
});
