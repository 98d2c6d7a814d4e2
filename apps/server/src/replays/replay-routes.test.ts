import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES, toPath } from '@sea/contract/paths';
import type {
  SessionChatMessage,
  SessionClassroom,
  SessionDetail,
  SessionItem,
  WatchState,
} from '@sea/contract/sessions';
import { appWithClass, insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, createUser, type TestUser } from '../../test/helper.ts';
import { insertSession, writeReplayFiles } from '../../test/sessions.ts';
import { chatMessages, polls, pollVotes, questions, questionVotes } from '../db/schema.ts';
import { withdraw } from '../users/withdraw.ts';

const { app, teacher, student, classId } = await appWithClass();
const stranger = await createUser(app);

const list = (user?: TestUser, id = classId) =>
  app.inject({ url: toPath(ROUTES.sessions, { classId: id }), headers: user ? bearer(user) : {} });
const one = (sessionId: number, user?: TestUser, route: string = ROUTES.session) =>
  app.inject({ url: toPath(route, { classId, sessionId }), headers: user ? bearer(user) : {} });
/** A write to one of the class's sessions, as `user`. */
const send = (
  method: 'PATCH' | 'DELETE' | 'POST',
  route: string,
  sessionId: number,
  user: TestUser,
  payload?: object,
) => app.inject({ method, url: toPath(route, { classId, sessionId }), payload, headers: bearer(user) });
const patch = (sessionId: number, payload: object, user = teacher) =>
  send('PATCH', ROUTES.session, sessionId, user, payload);
const remove = (sessionId: number, user = teacher) => send('DELETE', ROUTES.session, sessionId, user);
const watch = (sessionId: number, payload: object, user = student) =>
  send('POST', ROUTES.sessionWatch, sessionId, user, payload);

describe('sessions list', () => {
  it('lists newest first; signed URLs only when ready; hidden ones only to the teacher', async () => {
    const own = await insertClass(app, teacher.id);
    await insertEnrolment(app, own, student.id);
    const hour = 3600_000;
    const old = await insertSession(app, own, { startedAt: new Date(Date.now() - 30 * hour) });
    const failed = await insertSession(app, own, {
      startedAt: new Date(Date.now() - 20 * hour),
      recordingState: 'failed',
      recordingError: '녹화 파일을 찾을 수 없어 다시보기를 만들 수 없어요.',
    });
    const hidden = await insertSession(app, own, {
      startedAt: new Date(Date.now() - 10 * hour),
      hidden: true,
    });
    const live = await insertSession(app, own, {
      startedAt: new Date(Date.now() - 60_000),
      endedAt: null,
      recordingState: 'recording',
      recordingProgress: 0,
    });

    const forTeacher = expectOk<SessionItem[]>(await list(teacher, own));
    expect(forTeacher.map((s) => s.id)).toEqual([live.id, hidden.id, failed.id, old.id]);
    const forStudent = expectOk<SessionItem[]>(await list(student, own));
    expect(forStudent.map((s) => s.id)).toEqual([live.id, failed.id, old.id]);

    const [liveItem, failedItem, oldItem] = forStudent;
    expect(liveItem).toMatchObject({ ended_at: null, recording: { state: 'recording', hls_url: null } });
    expect(liveItem?.duration_s).toBeGreaterThanOrEqual(59);
    expect(failedItem?.recording).toMatchObject({
      state: 'failed',
      mp4_url: null,
      error: expect.stringMatching(/녹화/),
    });
    expect(oldItem).toMatchObject({ class_id: own, duration_s: 3600 });
    expect(oldItem?.recording).toMatchObject({ state: 'ready', progress: 100, title: null, hidden: false });
    expect(oldItem?.recording.hls_url).toMatch(
      new RegExp(`^/api/replays/${old.id}/hls/index\\.m3u8\\?u=${student.id}&exp=\\d+&sig=`),
    );
    expect(oldItem?.recording.mp4_url).toMatch(
      new RegExp(`^/api/replays/${old.id}/replay\\.mp4\\?u=${student.id}&exp=\\d+&sig=`),
    );
  });

  it('answers 401 without a token, 418 to a stranger, 404 for an unknown class', async () => {
    expectError(await list(), 401);
    expectError(await list(stranger), 418);
    expectError(await list(teacher, 999_999), 404);
  });

  it('answers 401 to a withdrawn student', async () => {
    const leaver = await createUser(app);
    await insertEnrolment(app, classId, leaver.id);
    expectOk(await list(leaver));
    await withdraw(app.db, leaver.id);
    expectError(await list(leaver), 401);
  });
});

describe('one session', () => {
  it('answers the item with resume_s, 0 until watched, then the saved position', async () => {
    const session = await insertSession(app, classId);
    const detail = expectOk<SessionDetail>(await one(session.id, student));
    expect(detail).toMatchObject({ id: session.id, resume_s: 0 });
    expectOk<WatchState>(await watch(session.id, { position_s: 12.5, playing: false }));
    expect(expectOk<SessionDetail>(await one(session.id, student)).resume_s).toBe(12.5);
    expect(expectOk<SessionDetail>(await one(session.id, teacher)).resume_s).toBe(0);
  });

  it('answers 404 for a session of another class, and for a hidden one to a student', async () => {
    const other = await insertClass(app, teacher.id);
    const elsewhere = await insertSession(app, other);
    expectError(await one(elsewhere.id, teacher), 404);
    const hidden = await insertSession(app, classId, { hidden: true });
    expectOk(await one(hidden.id, teacher));
    expectError(await one(hidden.id, student), 404);
    expectError(await watch(hidden.id, { position_s: 0, playing: true }), 404);
    expectError(await one(hidden.id, stranger), 418);
    expectError(await one(hidden.id), 401);
  });
});

describe('patch and delete', () => {
  it('renames (blank clears) and hides: teacher only', async () => {
    const session = await insertSession(app, classId);
    const renamed = expectOk<SessionItem>(await patch(session.id, { title: '  3강: 함수  ' }));
    expect(renamed.recording.title).toBe('3강: 함수');
    expect(expectOk<SessionItem>(await patch(session.id, { hidden: true })).recording).toMatchObject({
      title: '3강: 함수',
      hidden: true,
    });
    expect(expectOk<SessionItem>(await patch(session.id, { title: ' ' })).recording.title).toBeNull();
    expectError(await patch(session.id, { hidden: false }, student), 418);
    expectError(await patch(session.id, { hidden: false }, stranger), 418);
    const tooLong = expectError(await patch(session.id, { title: '가'.repeat(101) }), 400);
    expect(tooLong.invalid_fields?.title).toMatch(/100자/);
    expectError(await patch(session.id, { hidden: 'yes' }), 400);
  });

  it('deletes the replay’s files and the raw recording; the session stays with state none', async () => {
    const session = await insertSession(app, classId);
    const { dir, raw } = writeReplayFiles(app, session);
    expectError(await remove(session.id, student), 418);
    expect(fs.existsSync(dir)).toBe(true);
    const item = expectOk<SessionItem>(await remove(session.id));
    expect(item.recording).toMatchObject({ state: 'none', hls_url: null, mp4_url: null });
    expect(fs.existsSync(dir)).toBe(false);
    expect(fs.existsSync(raw)).toBe(false);
    const listed = expectOk<SessionItem[]>(await list(student));
    expect(listed.find((s) => s.id === session.id)?.recording.state).toBe('none');
    expectError(await watch(session.id, { position_s: 0, playing: true }), 409);
  });

  it('refuses to delete the recording of a lecture still on (409)', async () => {
    const session = await insertSession(app, classId, { endedAt: null, recordingState: 'recording' });
    expectError(await remove(session.id), 409);
  });
});

describe('session chat', () => {
  it('answers the messages of the session’s time, in order, with offsets on the replay’s clock', async () => {
    const own = await insertClass(app, teacher.id);
    await insertEnrolment(app, own, student.id);
    const start = new Date('2026-03-02T05:00:00Z');
    const session = await insertSession(app, own, {
      startedAt: start,
      endedAt: new Date(start.getTime() + 60_000),
    });
    // The teacher paused recording from 10 s to 20 s: the replay has that stretch cut out.
    writeReplayFiles(app, session, undefined, {
      sessionEndMs: 60_000,
      durationMs: 50_000,
      cuts: [{ atMs: 10_000, lengthMs: 10_000 }],
    });
    const at = (ms: number) => new Date(start.getTime() + ms);
    await app.db.insert(chatMessages).values([
      { classId: own, userId: student.id, content: '전', createdAt: at(-1000) },
      { classId: own, userId: student.id, content: '질문 있어요', createdAt: at(5_000) },
      { classId: own, userId: teacher.id, content: '네, 말씀하세요', createdAt: at(30_000) },
      { classId: own, userId: student.id, content: '후', createdAt: at(61_000) },
      { classId: classId, userId: student.id, content: '다른 강의', createdAt: at(6_000) },
    ]);
    const url = toPath(ROUTES.sessionChat, { classId: own, sessionId: session.id });
    const messages = expectOk<SessionChatMessage[]>(await app.inject({ url, headers: bearer(student) }));
    expect(messages.map((m) => [m.content, m.role, m.offset_ms])).toEqual([
      ['질문 있어요', 'student', 5_000],
      ['네, 말씀하세요', 'teacher', 20_000],
    ]);
    expect(messages[0]).toMatchObject({
      user_id: student.id,
      nickname: student.nickname,
      profile_image_path: null,
    });
    expectError(await app.inject({ url, headers: bearer(stranger) }), 418);
    expectError(await app.inject({ url }), 401);
  });
});

describe('session questions and polls', () => {
  it('answers them at their moments on the replay’s clock, as the live room shows them to the caller', async () => {
    const own = await insertClass(app, teacher.id);
    await insertEnrolment(app, own, student.id);
    const other = await createUser(app);
    await insertEnrolment(app, own, other.id);
    const start = new Date('2026-03-03T05:00:00Z');
    const session = await insertSession(app, own, {
      startedAt: start,
      endedAt: new Date(start.getTime() + 60_000),
    });
    const next = await insertSession(app, own, { startedAt: new Date(start.getTime() + 3_600_000) });
    // The teacher paused recording from 10 s to 20 s: the replay has that stretch cut out.
    writeReplayFiles(app, session, undefined, {
      sessionEndMs: 60_000,
      durationMs: 50_000,
      cuts: [{ atMs: 10_000, lengthMs: 10_000 }],
    });
    const at = (ms: number) => new Date(start.getTime() + ms);
    // Defaults only for the type: a missing id would fail the inserts below.
    const [asked = 0, anonymous = 0] = (
      await app.db
        .insert(questions)
        .values([
          {
            sessionId: session.id,
            classId: own,
            userId: other.id,
            content: '예제 파일은 어디 있나요?',
            createdAt: at(30_000),
            answered: true,
          },
          {
            sessionId: session.id,
            classId: own,
            userId: other.id,
            content: '익명 질문이에요',
            anonymous: true,
            createdAt: at(5_000),
          },
          {
            sessionId: next.id,
            classId: own,
            userId: student.id,
            content: '다음 강의',
            createdAt: at(3_605_000),
          },
        ])
        .returning({ id: questions.id })
    ).map((row) => row.id);
    await app.db.insert(questionVotes).values([
      { questionId: asked, userId: student.id },
      { questionId: asked, userId: teacher.id },
    ]);
    const [poll = 0, quiz = 0] = (
      await app.db
        .insert(polls)
        .values([
          {
            sessionId: session.id,
            classId: own,
            question: '속도는 어떤가요?',
            options: ['빨라요', '좋아요'],
            closedAt: at(50_000),
            createdAt: at(15_000),
          },
          {
            sessionId: session.id,
            classId: own,
            question: '1+1은?',
            options: ['1', '2'],
            correct: [1],
            revealed: true,
            closedAt: at(45_000),
            createdAt: at(40_000),
          },
        ])
        .returning({ id: polls.id })
    ).map((row) => row.id);
    await app.db.insert(pollVotes).values([
      { pollId: poll, userId: student.id, options: [1] },
      { pollId: poll, userId: other.id, options: [1] },
      { pollId: quiz, userId: other.id, options: [0] },
    ]);

    const url = toPath(ROUTES.sessionClassroom, { classId: own, sessionId: session.id });
    const seen = expectOk<SessionClassroom>(await app.inject({ url, headers: bearer(student) }));
    expect(seen.questions.map((q) => [q.content, q.offset_ms, q.votes, q.answered, q.author])).toEqual([
      ['익명 질문이에요', 5_000, 0, false, null],
      ['예제 파일은 어디 있나요?', 20_000, 2, true, other.nickname],
    ]);
    expect(seen.questions[1]).toMatchObject({ id: asked, voted: true, mine: false });
    // A poll that opened inside the pause sits where the pause was cut; its results were never revealed.
    expect(seen.polls.map((p) => [p.question, p.offset_ms, p.counts, p.correct, p.voters])).toEqual([
      ['속도는 어떤가요?', 10_000, null, null, 2],
      ['1+1은?', 30_000, [1, 0], [1], 1],
    ]);
    expect(seen.polls[0]).toMatchObject({ closed: true, myVote: [1] });

    const taught = expectOk<SessionClassroom>(await app.inject({ url, headers: bearer(teacher) }));
    expect(taught.questions.find((q) => q.id === anonymous)?.author).toBe(other.nickname);
    expect(taught.polls[0]?.counts).toEqual([0, 2]);

    expectError(await app.inject({ url, headers: bearer(stranger) }), 418);
    expectError(await app.inject({ url }), 401);
    const elsewhere = toPath(ROUTES.sessionClassroom, { classId, sessionId: session.id });
    expectError(await app.inject({ url: elsewhere, headers: bearer(teacher) }), 404);
  });
});

describe('watch beats', () => {
  it('counts playing time between beats and refuses a replay that is not ready', async () => {
    const session = await insertSession(app, classId);
    const first = expectOk<WatchState>(await watch(session.id, { position_s: 0, playing: true }));
    expect(first).toEqual({ watched_s: 0, position_s: 0 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = expectOk<WatchState>(await watch(session.id, { position_s: 1.1, playing: true }));
    expect(second.watched_s).toBe(1);
    expectError(await watch(session.id, { position_s: -1, playing: true }), 400);
    expectError(await watch(session.id, { position_s: 1, playing: true }, stranger), 418);
    const processing = await insertSession(app, classId, {
      recordingState: 'processing',
      recordingProgress: 40,
    });
    expectError(await watch(processing.id, { position_s: 0, playing: true }), 409);
  });

  it('refuses a position past the end of the replay (86 400 s of a 24 s replay was taken)', async () => {
    const session = await insertSession(app, classId, { replayDurationMs: 24_000 });
    const body = expectError(await watch(session.id, { position_s: 86_400, playing: true }), 400);
    expect(body.message_kor).toContain('다시보기 길이');
    expectError(await watch(session.id, { position_s: 25.5, playing: false }), 400);
    // Where the tab says it played from may not pass the end either.
    const from = expectError(await watch(session.id, { position_s: 24, playing: true, from_s: 30 }), 400);
    expect(from.message_kor).toContain('다시보기 길이');
    expectError(await watch(session.id, { position_s: 4, playing: true, from_s: -1 }), 400);
    expect(
      expectOk<WatchState>(await watch(session.id, { position_s: 24.4, playing: false })).position_s,
    ).toBe(24.4);
  });
});
