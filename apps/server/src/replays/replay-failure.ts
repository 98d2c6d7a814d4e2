import { RetryLaterError } from '../jobs/job-worker.ts';
import { diskSpace } from '../storage/disk-space.ts';
import { StoreUnavailable } from '@sea/service-kit/storage/store-errors';
import { shortageText, type SpaceShortage } from './replay-space.ts';
import { FfmpegError, FfmpegStalledError } from './run-ffmpeg.ts';

/**
 * Why an attempt at a replay failed, when the cause is the machine's, not the recording's: the replays' disk
 * full or not writable, ffmpeg missing, ffmpeg hung (the watchdog killed it) or killed by someone else, the
 * object store down or refusing the replay's files; or the recording still going up from its media node
 * (`uploading`, STORAGE=s3).
 */
export type EnvironmentCause =
  'space' | 'disk-full' | 'disk-unwritable' | 'ffmpeg-missing' | 'stalled' | 'killed' | 'store' | 'uploading';

/** What the dashboard shows while a replay waits for its cause to go (it is retried by itself). */
export const REPLAY_REASONS = {
  space: (shortage: SpaceShortage) =>
    `다시보기를 저장할 공간이 부족해 기다리고 있어요 (${shortageText(shortage)}). 공간이 생기면 자동으로 만들어요.`,
  diskFull: (shortage: SpaceShortage) =>
    `다시보기를 만드는 중에 저장 공간이 가득 찼어요 (${shortageText(shortage)}). 공간이 생기면 자동으로 다시 만들어요.`,
  unwritable: (code: string) =>
    `다시보기 폴더에 쓸 수 없어요 (${code}). 서버의 폴더 권한이나 디스크를 고치면 자동으로 다시 만들어요.`,
  ffmpegMissing:
    'ffmpeg를 실행할 수 없어 다시보기가 기다리고 있어요. ffmpeg가 다시 설치되면 자동으로 만들어요.',
  stalled: (seconds: number) =>
    `다시보기 인코딩이 ${seconds}초 동안 멈춰서 중단했어요. 자동으로 다시 만들어요.`,
  killed: (signal: string) => `다시보기 인코더가 강제로 종료되었어요 (${signal}). 자동으로 다시 만들어요.`,
  uploading:
    '미디어 서버가 녹화 파일을 아직 저장소에 올리고 있어요. 다 올라오면 자동으로 다시보기를 만들어요.',
  store:
    '파일 저장소가 응답하지 않거나 저장을 거부해 다시보기를 올리지 못했어요. 저장소가 돌아오면 자동으로 다시 만들어요.',
} as const;

/** An attempt that failed for an environment cause: retried after `delayMs`, its reason shown meanwhile. */
export class ReplayWait extends RetryLaterError {
  readonly reason: EnvironmentCause;
  /** The numbers for the log (free space needed and left, the code, the seconds). */
  readonly details: Record<string, unknown>;

  constructor(reason: EnvironmentCause, message: string, delayMs: number, details: Record<string, unknown>) {
    super(message, delayMs);
    this.reason = reason;
    this.details = details;
  }
}

const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
const UNWRITABLE_CODES = new Set(['EACCES', 'EPERM', 'EROFS']);
/** Free space below this after a failed encode means the disk filled (ffmpeg's output was cut off). */
const NEARLY_FULL_BYTES = 8 * 1024 * 1024;

/** The environment cause of an attempt's error, and what to say; null when the cause may be the recording. */
export async function environmentCause(
  error: unknown,
  facts: { replaysDir: string; neededBytes: number },
): Promise<{ cause: EnvironmentCause; message: string; details: Record<string, unknown> } | null> {
  const shortage = async () => ({
    neededBytes: facts.neededBytes,
    freeBytes: (await diskSpace(facts.replaysDir))?.freeBytes ?? 0,
  });
  const diskFull = async () => {
    const numbers = await shortage();
    return { cause: 'disk-full' as const, message: REPLAY_REASONS.diskFull(numbers), details: numbers };
  };
  if (error instanceof StoreUnavailable) {
    // Down, unreachable or refusing (a key without rights): the operator's to mend, never the recording's.
    return {
      cause: 'store',
      message: REPLAY_REASONS.store,
      details: { access: error.access, said: error.message },
    };
  }
  if (error instanceof FfmpegStalledError) {
    const seconds = Math.round(error.stalledMs / 1000);
    return {
      cause: 'stalled',
      message: REPLAY_REASONS.stalled(seconds),
      details: { stalledMs: error.stalledMs },
    };
  }
  const errno = error as NodeJS.ErrnoException;
  if (typeof errno?.code === 'string' && !(error instanceof FfmpegError)) {
    if (errno.syscall?.startsWith('spawn')) {
      return {
        cause: 'ffmpeg-missing',
        message: REPLAY_REASONS.ffmpegMissing,
        details: { code: errno.code },
      };
    }
    if (DISK_FULL_CODES.has(errno.code)) return diskFull();
    if (UNWRITABLE_CODES.has(errno.code)) {
      const details = { code: errno.code, path: errno.path };
      return { cause: 'disk-unwritable', message: REPLAY_REASONS.unwritable(errno.code), details };
    }
    return null;
  }
  if (!(error instanceof FfmpegError)) return null;
  const said = error.message;
  if (/failed to execute|exit code 127\b/.test(said)) {
    return { cause: 'ffmpeg-missing', message: REPLAY_REASONS.ffmpegMissing, details: { said } };
  }
  if (/No space left on device|Disk quota exceeded/i.test(said)) return diskFull();
  const code = /Read-only file system/i.test(said)
    ? 'EROFS'
    : /Permission denied/i.test(said)
      ? 'EACCES'
      : null;
  if (code) return { cause: 'disk-unwritable', message: REPLAY_REASONS.unwritable(code), details: { said } };
  if (error.killedBy) {
    const details = { signal: error.killedBy };
    return { cause: 'killed', message: REPLAY_REASONS.killed(error.killedBy), details };
  }
  // Output cut off without a word (a muxer's 'moov atom not found'): a full disk says so by its free space.
  const numbers = await shortage();
  if (numbers.freeBytes < NEARLY_FULL_BYTES) return diskFull();
  return null;
}

/**
 * How long a replay waits before trying again after an environment failure: the worker's retry delay doubled
 * with each attempt, at most `maxMs`. With the replay's many attempts, that is hours of retries.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
}
