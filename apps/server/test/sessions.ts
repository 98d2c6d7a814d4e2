import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { liveSessions } from '../src/db/schema.ts';
import { REPLAY_FILES, replayDir } from '../src/replays/replay-files.ts';
import type { ReplayTimeline } from '../src/replays/replay-timeline.ts';

let keys = 0;

/** Inserts a session directly (fast fixtures); ended an hour after `startedAt` unless told otherwise. */
export async function insertSession(
  app: FastifyInstance,
  classId: number,
  fields: Partial<typeof liveSessions.$inferInsert> = {},
): Promise<typeof liveSessions.$inferSelect> {
  keys += 1;
  const startedAt = fields.startedAt ?? new Date(Date.now() - 2 * 3600_000);
  const [row] = await app.db
    .insert(liveSessions)
    .values({
      classId,
      mediaKey: `test-${process.pid}-${keys}-${Math.random().toString(36).slice(2, 8)}`,
      nodeId: 'test-node',
      startedAt,
      endedAt: new Date(startedAt.getTime() + 3600_000),
      recordingState: 'ready',
      recordingProgress: 100,
      ...fields,
    })
    .returning();
  if (row === undefined) throw new Error('insert failed');
  return row;
}

/** A small fake replay (not real media) with these bytes in its MP4, and its raw recording folder. */
export function writeReplayFiles(
  app: FastifyInstance,
  session: { id: number; mediaKey: string },
  mp4 = Buffer.from('0123456789abcdefghij'),
  timeline?: ReplayTimeline,
): { dir: string; raw: string } {
  const dir = replayDir(app.config.replaysDir, session.id);
  fs.mkdirSync(path.join(dir, REPLAY_FILES.hlsDir), { recursive: true });
  fs.writeFileSync(path.join(dir, REPLAY_FILES.mp4), mp4);
  fs.writeFileSync(
    path.join(dir, REPLAY_FILES.playlist),
    '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6.0,\n' +
      'segment-00000.ts\n#EXTINF:4.0,\nsegment-00001.ts\n#EXT-X-ENDLIST\n',
  );
  fs.writeFileSync(path.join(dir, REPLAY_FILES.hlsDir, 'segment-00000.ts'), 'seg0');
  fs.writeFileSync(path.join(dir, REPLAY_FILES.hlsDir, 'segment-00001.ts'), 'seg1');
  fs.writeFileSync(
    path.join(dir, REPLAY_FILES.timeline),
    JSON.stringify(timeline ?? { sessionEndMs: 3600_000, durationMs: 3600_000, cuts: [] }),
  );
  const raw = path.join(app.config.recordingsDir, session.mediaKey);
  fs.mkdirSync(raw, { recursive: true });
  fs.writeFileSync(path.join(raw, 'manifest.jsonl'), '{}\n');
  return { dir, raw };
}
