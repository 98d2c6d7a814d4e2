import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { safeFileName } from '@sea/contract/file-names';
import { idText } from '@sea/contract/ids';
import { ROUTES } from '@sea/contract/paths';
import { attachment } from '../content-disposition.ts';
import { classes, enrolments, liveSessions, users } from '../db/schema.ts';
import { errorResponses } from '../envelope.ts';
import { forbidden, notFound } from '../errors.ts';
import { sendStoredFile } from '../storage/send-stored-file.ts';
import { REPLAY_FILES, replayKey } from './replay-files.ts';

const SessionParams = z.object({ sessionId: idText('세션 번호가 올바르지 않아요.') });
const SegmentParams = SessionParams.extend({ segment: z.string() });
const SignedQuery = z.object({
  u: z.string().optional().describe('the viewer the URL was signed for (a user id)'),
  exp: z.string().optional().describe('expiry, Unix seconds'),
  sig: z.string().optional().describe('signature of the session id and the expiry'),
  download: z.literal('1').optional().describe('MP4 only: as an attachment with the replay’s title'),
});
/** The segment names the HLS remux writes (ffmpeg-args.ts); nothing else in the folder is served. */
const SEGMENT = /^segment-\d{1,9}\.ts$/;
/** The WebVTT chapters track beside the playlist (replay-chapters.ts). */
const CHAPTERS_TRACK = path.basename(REPLAY_FILES.chapters);
const tags = ['replays'];
const signedErrors = errorResponses(400, 403, 404);

/**
 * A replay's files, only with a valid signature (`?u=&exp=&sig=` from the session item's URLs) and only while
 * its viewer may watch it, asked of the database on every request: the viewer is the class's teacher, or a
 * student enrolled in it while the replay is not hidden, and has not withdrawn. So a replay hidden, a
 * student unenrolled or withdrawn is refused (403) at the next request, a playing video's next segment or
 * Range request included, though the URL's signature lives for hours. The MP4 (with
 * HTTP Range requests, for seeking and resumed downloads; `?download=1` names it after the replay in an
 * RFC 5987 `filename*`), and the HLS playlist (served with the same signature on each segment URI) and its
 * segments. Nothing else under REPLAYS_DIR is reachable: the names are fixed or checked, never joined from
 * the URL as a path. An expired or altered signature answers 403 before anything about the files is told.
 * The files come from the replays' store on either driver, streamed through this server (so the check above
 * holds for every request, a Range request of a seeking player included).
 */
export async function replayFileRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const files = app.files.replays;

  /**
   * The session's replay folder, once its signature is checked, its replay is still there to serve and its
   * viewer may still watch it (one query).
   */
  const openFolder = async (sessionId: number, query: z.infer<typeof SignedQuery>) => {
    const viewer = query.u;
    if (viewer === undefined || !app.replayUrls.verify(sessionId, viewer, query.exp, query.sig)) {
      throw forbidden();
    }
    const [session] = await app.db
      .select({
        title: liveSessions.title,
        className: classes.name,
        // The session's place among its class's sessions (1강, 2강...), for the download's name.
        ordinal: sql<number>`(select count(*)::int from ${liveSessions} as earlier
          where earlier.class_id = ${liveSessions.classId}
            and (earlier.started_at, earlier.id) <= (${liveSessions.startedAt}, ${liveSessions.id}))`,
        allowed: sql<boolean>`(exists (select 1 from ${users} where ${users.id} = ${viewer}
            and ${users.deletedAt} is null)
          and (${classes.teacherId} = ${viewer} or (not ${liveSessions.hidden} and exists (
            select 1 from ${enrolments}
            where ${enrolments.classId} = ${classes.id} and ${enrolments.userId} = ${viewer}))))`,
      })
      .from(liveSessions)
      .innerJoin(classes, eq(classes.id, liveSessions.classId))
      .where(
        and(
          eq(liveSessions.id, sessionId),
          eq(liveSessions.recordingState, 'ready'),
          isNull(classes.deletedAt),
        ),
      );
    if (session === undefined) throw notFound('file');
    if (!session.allowed) throw noLongerAllowed();
    return session;
  };

  app.get(
    ROUTES.replayMp4,
    {
      schema: {
        tags,
        summary: 'A replay’s MP4 (signed URL; Range requests; `download=1` as an attachment)',
        params: SessionParams,
        querystring: SignedQuery,
        response: { 200: z.string().describe('video/mp4 (206 for a Range request)'), ...signedErrors },
      },
    },
    async (request, reply) => {
      const { sessionId } = request.params;
      const session = await openFolder(sessionId, request.query);
      if (request.query.download === '1') {
        reply.header(
          'content-disposition',
          attachment(
            sessionIdName(sessionId),
            downloadName(session.className, session.title, session.ordinal),
          ),
        );
      }
      const sent = await sendStoredFile(
        reply,
        files,
        replayKey(sessionId, REPLAY_FILES.mp4),
        request.headers.range,
        {
          type: 'video/mp4',
          cacheControl: 'private, max-age=3600',
        },
      );
      if (!sent) throw notFound('file');
      return reply;
    },
  );

  app.get(
    ROUTES.replayPlaylist,
    {
      schema: {
        tags,
        summary: 'A replay’s HLS playlist (signed URL); its segment URIs carry the same signature',
        params: SessionParams,
        querystring: SignedQuery,
        response: { 200: z.string().describe('the M3U8 playlist'), ...signedErrors },
      },
    },
    async (request, reply) => {
      const { sessionId } = request.params;
      await openFolder(sessionId, request.query);
      const bytes = await files.read(replayKey(sessionId, REPLAY_FILES.playlist));
      if (bytes === null) throw notFound('file');
      const text = bytes.toString('utf8');
      const { u, exp, sig } = request.query;
      const signature = `u=${encodeURIComponent(u ?? '')}&exp=${exp ?? ''}&sig=${sig ?? ''}`;
      return reply
        .type('application/vnd.apple.mpegurl')
        .header('cache-control', 'private, no-store')
        .send(signPlaylist(text, signature));
    },
  );

  app.get(
    ROUTES.replaySegment,
    {
      schema: {
        tags,
        summary: 'A segment of a replay’s HLS playlist, or its `chapters.vtt` chapters track (signed URL)',
        params: SegmentParams,
        querystring: SignedQuery,
        response: { 200: z.string().describe('video/mp2t'), ...signedErrors },
      },
    },
    async (request, reply) => {
      const { sessionId, segment } = request.params;
      await openFolder(sessionId, request.query);
      const chapters = segment === CHAPTERS_TRACK;
      if (!chapters && !SEGMENT.test(segment)) throw notFound('file');
      const key = replayKey(sessionId, `${REPLAY_FILES.hlsDir}/${segment}`);
      const sent = await sendStoredFile(
        reply,
        files,
        key,
        request.headers.range,
        // The chapters track is rewritten when the teacher changes the chapters: never cached.
        chapters
          ? { type: 'text/vtt; charset=utf-8', cacheControl: 'private, no-store' }
          : { type: 'video/mp2t', cacheControl: 'private, max-age=3600' },
      );
      if (!sent) throw notFound('file');
      return reply;
    },
  );
}

/** A valid link whose viewer may no longer watch: the replay is hidden, or they left the class or the site. */
function noLongerAllowed() {
  return forbidden(
    '이 다시보기를 볼 수 있는 권한이 없어요. 강의 페이지에서 다시 확인해 주세요.',
    'You may no longer watch this replay.',
  );
}

/** The playlist with `signature` (a query string) added to every segment URI. */
export function signPlaylist(playlist: string, signature: string): string {
  return playlist
    .split('\n')
    .map((line) => {
      const uri = line.trim();
      if (uri === '' || uri.startsWith('#')) return line;
      return `${uri}${uri.includes('?') ? '&' : '?'}${signature}`;
    })
    .join('\n');
}

/**
 * The download's name: the class's name and the session's title, or its place among the class's sessions
 * ('노션으로 하루 정리_1강.mp4'), without characters no file name takes.
 */
export function downloadName(className: string, title: string | null, ordinal: number): string {
  return `${safeFileName(className, '강의')}_${safeFileName(title, `${ordinal}강`)}.mp4`;
}

/** The ASCII name of a download, for clients that do not read `filename*`. */
function sessionIdName(sessionId: number): string {
  return `replay-${sessionId}.mp4`;
}
