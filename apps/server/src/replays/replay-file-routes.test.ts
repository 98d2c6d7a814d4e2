import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROUTES, toPath } from '@sea/contract/paths';
import type { SessionItem } from '@sea/contract/sessions';
import { appWithClass, insertEnrolment } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, createUser } from '../../test/helper.ts';
import { insertSession, writeReplayFiles } from '../../test/sessions.ts';
import { hlsArgs } from './ffmpeg-args.ts';
import { type Ffmpeg, findFfmpeg } from './find-tools.ts';
import { REPLAY_FILES, replayDir } from './replay-files.ts';
import { attachment } from '../attachment.ts';
import { downloadName, signPlaylist } from './replay-file-routes.ts';
import { ReplayUrls, type ReplaySignature } from './replay-urls.ts';

const run = promisify(execFile);
const ffmpeg: Ffmpeg | null = await findFfmpeg(null);
if (!ffmpeg && process.env.CI === 'true') throw new Error('ffmpeg is required when CI=true');
const MP4 = Buffer.from('ftyp0123456789abcdefghijklmnopqrstuvwxyz');
const { app, teacher, student, classId } = await appWithClass();

/** The signed URLs the list gives a member. */
async function urlsOf(sessionId: number): Promise<{ hls: string; mp4: string }> {
  const items = expectOk<SessionItem[]>(
    await app.inject({ url: toPath(ROUTES.sessions, { classId }), headers: bearer(student) }),
  );
  const item = items.find((s) => s.id === sessionId);
  if (!item?.recording.hls_url || !item.recording.mp4_url) throw new Error('no URLs');
  return { hls: item.recording.hls_url, mp4: item.recording.mp4_url };
}

describe('replay files', () => {
  it('serves the MP4 with a valid signature, whole and by Range, and as a Korean-named download', async () => {
    const session = await insertSession(app, classId, { title: '3강: 함수 "심화"' });
    writeReplayFiles(app, session, MP4);
    const { mp4 } = await urlsOf(session.id);
    const whole = await app.inject({ url: mp4 });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toMatch(/^video\/mp4/);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(MP4)).toBe(true);

    const part = await app.inject({ url: mp4, headers: { range: 'bytes=4-9' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-9/${MP4.length}`);
    expect(part.body).toBe('012345');

    const download = await app.inject({ url: `${mp4}&download=1` });
    expect(download.statusCode).toBe(200);
    const disposition = String(download.headers['content-disposition']);
    expect(disposition).toMatch(
      new RegExp(`^attachment; filename="replay-${session.id}\\.mp4"; filename\\*=UTF-8''`),
    );
    const encoded = disposition.split("filename*=UTF-8''")[1] ?? '';
    expect(encoded).toMatch(/^[A-Za-z0-9%._~!-]+$/);
    expect(decodeURIComponent(encoded)).toMatch(/^3강 함수 심화 \d{4}-\d{2}-\d{2}\.mp4$/);
  });

  it('serves the playlist with the signature on each segment, and the segments with it', async () => {
    const session = await insertSession(app, classId);
    writeReplayFiles(app, session, MP4);
    const { hls } = await urlsOf(session.id);
    const playlist = await app.inject({ url: hls });
    expect(playlist.statusCode).toBe(200);
    expect(playlist.headers['content-type']).toMatch(/mpegurl/);
    const query = hls.split('?')[1];
    const segments = playlist.body.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(segments).toEqual([`segment-00000.ts?${query}`, `segment-00001.ts?${query}`]);
    const base = hls.slice(0, hls.lastIndexOf('/') + 1);
    const segment = await app.inject({ url: `${base}${segments[1]}` });
    expect(segment.statusCode).toBe(200);
    expect(segment.headers['content-type']).toMatch(/video\/mp2t/);
    expect(segment.body).toBe('seg1');
    // The same segment without its signature is refused.
    expectError(await app.inject({ url: `${base}segment-00001.ts` }), 403);
  });

  it('answers 403 to an expired, altered, missing or other session’s signature', async () => {
    const session = await insertSession(app, classId);
    const other = await insertSession(app, classId);
    writeReplayFiles(app, session, MP4);
    writeReplayFiles(app, other, MP4);
    const path = toPath(ROUTES.replayMp4, { sessionId: session.id });
    const url = ({ exp, sig }: ReplaySignature, viewer = student.id) =>
      `${path}?u=${viewer}&exp=${exp}&sig=${sig}`;
    // Signed by this server's key with a clock four hours behind: expired by now.
    const past = new ReplayUrls(app.config.jwtSecret, () => Date.now() - 5 * 3600_000);
    expectError(await app.inject({ url: url(past.sign(session.id, student.id)) }), 403);
    const good = app.replayUrls.sign(session.id, student.id);
    expect((await app.inject({ url: url(good) })).statusCode).toBe(200);
    // A later expiry with the same signature, a changed signature, another key, another session's signature,
    // another viewer's name on this signature.
    expectError(await app.inject({ url: url({ exp: good.exp + 3600, sig: good.sig }) }), 403);
    const flipped = `${good.sig.slice(0, -1)}${good.sig.endsWith('A') ? 'B' : 'A'}`;
    expectError(await app.inject({ url: url({ exp: good.exp, sig: flipped }) }), 403);
    const foreign = new ReplayUrls('another secret').sign(session.id, student.id);
    expectError(await app.inject({ url: url(foreign) }), 403);
    expectError(await app.inject({ url: url(app.replayUrls.sign(other.id, student.id)) }), 403);
    expectError(await app.inject({ url: url(good, teacher.id) }), 403);
    expectError(await app.inject({ url: path }), 403);
    expectError(await app.inject({ url: `${path}?exp=${good.exp}&sig=${good.sig}` }), 403);
    expectError(await app.inject({ url: `${path}?u=${student.id}&exp=abc&sig=${good.sig}` }), 403);
  });

  it('stops opening a replay at the next request once it is hidden, or its student unenrols or withdraws', async () => {
    const session = await insertSession(app, classId);
    writeReplayFiles(app, session, MP4);
    const sessionPath = toPath(ROUTES.session, { classId, sessionId: session.id });
    const hide = (hidden: boolean) =>
      app.inject({ method: 'PATCH', url: sessionPath, headers: bearer(teacher), payload: { hidden } });
    const { mp4, hls } = await urlsOf(session.id);
    const teachers = expectOk<SessionItem>(await app.inject({ url: sessionPath, headers: bearer(teacher) }));
    const base = hls.slice(0, hls.lastIndexOf('/') + 1);
    const segment = `${base}segment-00001.ts?${hls.split('?')[1] ?? ''}`;
    expect((await app.inject({ url: segment })).statusCode).toBe(200);

    expectOk(await hide(true));
    for (const url of [mp4, hls, segment]) {
      const refused = expectError(await app.inject({ url }), 403);
      expect(refused.message_kor).toContain('권한');
    }
    expect((await app.inject({ url: teachers.recording.mp4_url ?? '' })).statusCode).toBe(200);
    expectOk(await hide(false));
    expect((await app.inject({ url: mp4 })).statusCode).toBe(200);

    const enrol = toPath(ROUTES.enroll, { classId });
    expectOk(await app.inject({ method: 'DELETE', url: enrol, headers: bearer(student) }));
    expectError(await app.inject({ url: segment }), 403);
    expectOk(await app.inject({ method: 'POST', url: enrol, headers: bearer(student) }));
    expect((await app.inject({ url: segment })).statusCode).toBe(200);

    const leaving = await createUser(app);
    await insertEnrolment(app, classId, leaving.id);
    const leavingItems = expectOk<SessionItem[]>(
      await app.inject({ url: toPath(ROUTES.sessions, { classId }), headers: bearer(leaving) }),
    );
    const leavingMp4 = leavingItems.find((item) => item.id === session.id)?.recording.mp4_url ?? '';
    expect((await app.inject({ url: leavingMp4 })).statusCode).toBe(200);
    expectOk(await app.inject({ method: 'DELETE', url: '/api/auth/signup', headers: bearer(leaving) }));
    expectError(await app.inject({ url: leavingMp4 }), 403);
  });

  it('refuses paths outside the replay’s files', async () => {
    const session = await insertSession(app, classId);
    writeReplayFiles(app, session, MP4);
    const q = app.replayUrls.query(session.id, student.id);
    for (const segment of [
      '..%2Ftimeline.json',
      '..%2F..%2F..%2Fetc%2Fpasswd',
      'index.m3u8.bak',
      '.hidden',
      '%2e%2e',
    ]) {
      const response = await app.inject({ url: `/api/replays/${session.id}/hls/${segment}?${q}` });
      expect(response.statusCode, segment).toBe(404);
    }
    for (const url of [
      `/api/replays/${session.id}/timeline.json?${q}`,
      `/api/replays/${session.id}/../${session.id}/timeline.json?${q}`,
      `/api/replays/${session.id}/hls/../timeline.json?${q}`,
    ]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('sessionEndMs');
    }
    expect((await app.inject({ url: `/api/replays/..%2F1/replay.mp4?${q}` })).statusCode).toBe(400);
  });

  it('answers 404 once the replay is deleted, even with a valid signature', async () => {
    const session = await insertSession(app, classId);
    writeReplayFiles(app, session, MP4);
    const { mp4 } = await urlsOf(session.id);
    expect((await app.inject({ url: mp4 })).statusCode).toBe(200);
    expectOk(
      await app.inject({
        method: 'DELETE',
        url: toPath(ROUTES.session, { classId, sessionId: session.id }),
        headers: bearer(teacher),
      }),
    );
    expectError(await app.inject({ url: mp4 }), 404);
  });

  it('keeps the same URLs within the hour, so a player’s source does not change under it', () => {
    let now = Date.parse('2026-03-02T05:10:00Z');
    const urls = new ReplayUrls('secret', () => now);
    const first = urls.sign(7, 'viewer');
    now += 20 * 60_000;
    expect(urls.sign(7, 'viewer')).toEqual(first);
    expect(first.exp * 1000 - Date.parse('2026-03-02T05:10:00Z')).toBeGreaterThanOrEqual(3 * 3600_000);
    expect(urls.verify(7, 'viewer', String(first.exp), first.sig)).toBe(true);
    expect(urls.verify(7, 'viewe', String(first.exp), first.sig)).toBe(false);
    now = first.exp * 1000;
    expect(urls.verify(7, 'viewer', String(first.exp), first.sig)).toBe(false);
  });
});

describe('helpers', () => {
  it('signs only URI lines of a playlist', () => {
    expect(signPlaylist('#EXTM3U\n#EXTINF:6.0,\nsegment-00000.ts\n\n#EXT-X-ENDLIST\n', 'exp=1&sig=x')).toBe(
      '#EXTM3U\n#EXTINF:6.0,\nsegment-00000.ts?exp=1&sig=x\n\n#EXT-X-ENDLIST\n',
    );
  });

  it('names downloads safely', () => {
    const at = new Date('2026-03-01T16:00:00Z'); // 2026-03-02 01:00 in Korea
    expect(downloadName(null, at)).toBe('다시보기 2026-03-02.mp4');
    expect(downloadName('a/b\\c:"d"\u0007', at)).toBe('a b c d 2026-03-02.mp4');
    expect(attachment('replay-1.mp4', "강의 (1)'*.mp4")).toBe(
      'attachment; filename="replay-1.mp4"; filename*=UTF-8\'\'%EA%B0%95%EC%9D%98%20%281%29%27%2A.mp4',
    );
  });
});

describe.skipIf(!ffmpeg)('a real replay (ffmpeg)', () => {
  it(
    'streams every segment of the real playlist and seeks in the real MP4',
    { timeout: 120_000 },
    async () => {
      if (!ffmpeg) return;
      const session = await insertSession(app, classId);
      const dir = replayDir(app.config.replaysDir, session.id);
      const mp4 = path.join(dir, REPLAY_FILES.mp4);
      fs.mkdirSync(path.join(dir, REPLAY_FILES.hlsDir), { recursive: true });
      // 14 s of 160x90 picture and a tone, a keyframe every 6 s like the replay job's output.
      await run(ffmpeg.path, [
        ...['-hide_banner', '-loglevel', 'error', '-y'],
        ...['-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=15:duration=14'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=14'],
        ...[
          '-c:v',
          'libx264',
          '-preset',
          'ultrafast',
          '-pix_fmt',
          'yuv420p',
          '-force_key_frames',
          'expr:gte(t,n_forced*6)',
        ],
        ...['-c:a', 'aac', '-movflags', '+faststart', mp4],
      ]);
      await run(ffmpeg.path, hlsArgs(mp4, path.join(dir, REPLAY_FILES.hlsDir)));
      const { hls, mp4: mp4Url } = await urlsOf(session.id);

      const playlist = await app.inject({ url: hls });
      expect(playlist.statusCode).toBe(200);
      const uris = playlist.body.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
      expect(uris.length).toBeGreaterThanOrEqual(2);
      const base = hls.slice(0, hls.lastIndexOf('/') + 1);
      for (const uri of uris) {
        const segment = await app.inject({ url: `${base}${uri}` });
        expect(segment.statusCode, uri).toBe(200);
        const name = uri.split('?')[0] ?? '';
        expect(segment.rawPayload.equals(fs.readFileSync(path.join(dir, REPLAY_FILES.hlsDir, name)))).toBe(
          true,
        );
        expect(segment.rawPayload[0]).toBe(0x47); // an MPEG-TS sync byte
      }

      const bytes = fs.readFileSync(mp4);
      const from = Math.floor(bytes.length / 2);
      const seek = await app.inject({ url: mp4Url, headers: { range: `bytes=${from}-` } });
      expect(seek.statusCode).toBe(206);
      expect(seek.rawPayload.equals(bytes.subarray(from))).toBe(true);
      const beyond = await app.inject({ url: mp4Url, headers: { range: `bytes=${bytes.length + 10}-` } });
      expect(beyond.statusCode).toBe(416);
    },
  );
});
