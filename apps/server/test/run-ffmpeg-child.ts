// A process that runs ffmpeg through runFfmpeg and prints ffmpeg's pid, for the test that kills it.
import { execFileSync } from 'node:child_process';
import { runFfmpeg } from '../src/replays/run-ffmpeg.ts';

const [ffmpeg = 'ffmpeg', ...args] = process.argv.slice(2);
let printed = false;
await runFfmpeg(ffmpeg, args, {
  onLine: () => {
    if (printed) return;
    printed = true;
    // The only child of this process is ffmpeg (setpriv runs it in its own place).
    process.stdout.write(
      execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' })
        .trim()
        .split('\n')[0] ?? '',
    );
  },
});
