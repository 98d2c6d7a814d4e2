import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

// The replay pages journey's sessions: written into the stopped server's data folder (no media service in
// that journey; recording and processing have journeys of their own).

/** The ready replay's length. */
export const REPLAY_S = 20;
/** Chat messages of the ready session, by seconds after its start. */
export const CHAT = [
  { atS: 3, content: '선생님 목소리 잘 들려요!' },
  { atS: 9, content: '지금 화면의 예제 다시 볼 수 있을까요?' },
  { atS: 15, content: '오늘 수업 감사합니다.' },
];
/** The stretch of the first ready session's lecture that was not recorded (after its chat), in seconds. */
export const GAP = { fromS: 17, untilS: 21 };
/** The teacher's chapter marks in the second ready session, by seconds after its start. */
export const CHAPTERS = [
  { atS: 6, title: '밀물과 썰물' },
  { atS: 14, title: '파도의 높이 재기' },
];

/** Whether ffmpeg is here (required when CI=true). */
export function ffmpegAvailable(): boolean {
  try {
    execFileSync('ffmpeg', ['-hide_banner', '-version'], { stdio: 'ignore' });
    return true;
  } catch {
    if (process.env.CI === 'true') throw new Error('ffmpeg is required for the replay pages journey');
    console.warn('\n!!! SKIPPING the replay pages journey: no ffmpeg on PATH !!!\n');
    return false;
  }
}

/**
 * A real replay as the processing job leaves it: a 20 s 1280x720 H.264/AAC MP4 (a test picture with a
 * running clock, a tone) remuxed into HLS VOD, and its timeline, in `REPLAYS_DIR/{sessionId}/`.
 */
export function writeReplay(replaysDir: string, sessionId: number): void {
  const dir = path.join(replaysDir, String(sessionId));
  fs.mkdirSync(path.join(dir, 'hls'), { recursive: true });
  const mp4 = path.join(dir, 'replay.mp4');
  const quiet = ['-hide_banner', '-loglevel', 'error', '-y'];
  execFileSync('ffmpeg', [
    ...quiet,
    ...['-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=30:duration=${REPLAY_S}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${REPLAY_S}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '60'],
    ...['-c:a', 'aac', '-b:a', '96k', '-movflags', '+faststart', '-shortest', mp4],
  ]);
  execFileSync('ffmpeg', [
    ...[...quiet, '-i', mp4, '-c', 'copy', '-f', 'hls', '-hls_time', '6', '-hls_playlist_type', 'vod'],
    ...[
      '-hls_segment_filename',
      path.join(dir, 'hls', 'segment-%05d.ts'),
      path.join(dir, 'hls', 'index.m3u8'),
    ],
  ]);
  const durationMs = REPLAY_S * 1000;
  fs.writeFileSync(
    path.join(dir, 'timeline.json'),
    JSON.stringify({ sessionEndMs: durationMs, durationMs, cuts: [] }),
  );
}

/** A second ready session's replay: the same files as `sessionId`'s, copied (ffmpeg runs once). */
export function copyReplay(replaysDir: string, fromId: number, toId: number): void {
  fs.cpSync(path.join(replaysDir, String(fromId)), path.join(replaysDir, String(toId)), { recursive: true });
}

/**
 * The sessions a class has had, written straight into the stopped server's database: `readyId` with its chat
 * and attendance, `secondId` (a later ready one) with the teacher's chapter marks.
 */
export async function seedSessions(
  dataDir: string,
  classId: number,
): Promise<{ readyId: number; secondId: number }> {
  const db = new PGlite(path.join(dataDir, 'pglite'));
  try {
    const users = await db.query<{ id: string; nickname: string }>('select id, nickname from users');
    const idOf = (nickname: string) => {
      const user = users.rows.find((row) => row.nickname === nickname);
      if (user === undefined) throw new Error(`no user ${nickname}`);
      return user.id;
    };
    const student = idOf('해달학생');
    const classmate = idOf('물범학생');
    const hour = 3600_000;
    const now = Date.now();
    // The students enrolled before the class's first session, as in a class that has run for weeks: one who
    // missed a session is 결석 there.
    await db.query('update enrolments set created_at = $2 where class_id = $1', [
      classId,
      new Date(now - 60 * 24 * hour),
    ]);
    const insert = async (
      startedAgoMs: number,
      lengthMs: number | null,
      state: string,
      fields: {
        progress?: number;
        error?: string;
        title?: string;
        hidden?: boolean;
        gaps?: { fromMs: number; untilMs: number; atMs: number }[];
      } = {},
    ): Promise<number> => {
      const started = new Date(now - startedAgoMs);
      const answer = await db.query<{ id: number }>(
        `insert into live_sessions (class_id, media_key, node_id, started_at, ended_at, recording_state,
           recording_progress, recording_error, replay_duration_ms, title, hidden, recording_gaps)
         values ($1, $2, 'e2e-node', $3, $4, $5, $6, $7, $8, $9, $10, $11) returning id`,
        [
          classId,
          `e2e-${classId}-${startedAgoMs}`,
          started,
          lengthMs === null ? null : new Date(started.getTime() + lengthMs),
          state,
          fields.progress ?? (state === 'ready' ? 100 : 0),
          fields.error ?? null,
          state === 'ready' ? REPLAY_S * 1000 : null,
          fields.title ?? null,
          fields.hidden ?? false,
          JSON.stringify(fields.gaps ?? []),
        ],
      );
      const id = answer.rows[0]?.id;
      if (id === undefined) throw new Error('insert failed');
      return id;
    };
    await insert(30 * 24 * hour, 40 * 60_000, 'none');
    await insert(7 * 24 * hour, 50 * 60_000, 'failed', {
      error: '녹화 파일을 찾을 수 없어 다시보기를 만들 수 없어요.',
    });
    await insert(3 * 24 * hour, 45 * 60_000, 'ready', { title: '숨겨 둔 연습 강의', hidden: true });
    // Its lecture ran 4 s longer than the replay: the recording has a gap (cut where the replay is at 17 s).
    const gapMs = (GAP.untilS - GAP.fromS) * 1000;
    const readyId = await insert(24 * hour, REPLAY_S * 1000 + gapMs, 'ready', {
      title: '파도 읽기 1강',
      gaps: [{ fromMs: GAP.fromS * 1000, untilMs: GAP.untilS * 1000, atMs: GAP.fromS * 1000 }],
    });
    const secondId = await insert(20 * hour, REPLAY_S * 1000, 'ready', { title: '파도 읽기 2강' });
    const processingId = await insert(2 * hour, 55 * 60_000, 'processing', { progress: 42 });
    // Its job waits in the queue (the second run has no worker), so it stays at 42 %.
    await db.query(`insert into jobs (kind, payload, key, state) values ('replay', $1, $2, 'queued')`, [
      JSON.stringify({ sessionId: processingId }),
      `replay:${processingId}`,
    ]);

    const readyStart = now - 24 * hour;
    for (const message of CHAT) {
      await db.query(
        'insert into chat_messages (class_id, user_id, content, created_at) values ($1, $2, $3, $4)',
        [classId, student, message.content, new Date(readyStart + message.atS * 1000)],
      );
    }
    const stay = async (userId: string, fromS: number, toS: number | null) =>
      db.query('insert into attendance (session_id, user_id, joined_at, left_at) values ($1, $2, $3, $4)', [
        readyId,
        userId,
        new Date(readyStart + fromS * 1000),
        toS === null ? null : new Date(readyStart + toS * 1000),
      ]);
    await stay(student, 0, 8);
    await stay(student, 10, 20);
    await stay(classmate, 2, 20);
    await db.query(
      `insert into replay_watches (session_id, user_id, watched, position_s, playing, last_beat_at)
       values ($1, $2, '[[0, 600]]'::jsonb, 7, false, $3)`,
      [readyId, classmate, new Date(now - hour)],
    );
    const secondStart = now - 20 * hour;
    for (const chapter of CHAPTERS) {
      await db.query('insert into chapter_marks (session_id, at, title) values ($1, $2, $3)', [
        secondId,
        new Date(secondStart + chapter.atS * 1000),
        chapter.title,
      ]);
    }
    return { readyId, secondId };
  } finally {
    await db.close();
  }
}
