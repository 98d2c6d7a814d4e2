import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  BOARD_CLEAR_DESTINATION,
  BOARD_ERASE_DESTINATION,
  BOARD_INK_DESTINATION,
  BOARD_PAGE_DESTINATION,
  BOARD_POINTER_DESTINATION,
  BOARD_WRITER_DESTINATION,
  type BoardEvent,
  type BoardSnapshot,
  boardTopic,
  MAX_POINTS_PER_STROKE,
  type SessionBoard,
} from '@sea/contract/board';
import type { Chapter } from '@sea/contract/chapters';
import { HAND_RAISE_DESTINATION } from '@sea/contract/classroom';
import { boardStages, liveSessions } from '../db/schema.ts';
import { insertReadyMaterial, penPiece } from '../../test/board.ts';
import { createChatClass, eventually } from '../../test/chat-clients.ts';
import { endLiveSession, enrolStudent, openLiveSession } from '../../test/classroom.ts';
import { bearer, type TestUser } from '../../test/helper.ts';
import { roomActionsUnderTest } from '../../test/room-actions.ts';

const { app: built, joined, member, overSocket } = roomActionsUnderTest();
let app: FastifyInstance;
beforeAll(() => {
  app = built();
});

async function board(user: TestUser, classId: number): Promise<BoardSnapshot> {
  const response = await app.inject({ url: `/api/classes/${classId}/board`, headers: bearer(user) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: BoardSnapshot }>().data;
}

describe('the board', () => {
  it('shows the teacher’s page and ink to students as it is drawn, and to a late joiner all at once', async () => {
    const { classId, teacher, student } = await createChatClass(app);
    const materialId = await insertReadyMaterial(app, classId, ['첫 쪽', '둘째 쪽', null]);
    await openLiveSession(app, classId);
    const teacherClient = await overSocket(teacher, classId);
    const studentClient = await overSocket(student, classId);
    const seen = (await studentClient.watch(boardTopic(classId))) as BoardEvent[];

    expect(
      await teacherClient.request(BOARD_PAGE_DESTINATION, { roomId: classId, materialId, page: 2 }),
    ).toBeNull();
    const at = { materialId, page: 2, strokeId: 's1' };
    expect(await teacherClient.request(BOARD_INK_DESTINATION, penPiece(classId, at, 3))).toBeNull();
    expect(
      await teacherClient.request(BOARD_INK_DESTINATION, penPiece(classId, at, 2, { from: 3, done: true })),
    ).toBeNull();
    const highlight = {
      ...penPiece(classId, { materialId, page: 2, strokeId: 'h1' }, 2, { done: true }),
      tool: 'highlighter',
    };
    expect(await teacherClient.request(BOARD_INK_DESTINATION, highlight)).toBeNull();
    expect(
      await teacherClient.request(BOARD_POINTER_DESTINATION, { roomId: classId, x: 0.5, y: 0.25 }),
    ).toBeNull();
    await eventually(() => expect(seen).toHaveLength(5));
    expect(seen[0]).toEqual({
      type: 'stage',
      roomId: classId,
      stage: { materialId, page: 2, blankPages: 0, layout: 'board' },
    });
    expect(seen[1]).toMatchObject({ type: 'ink', strokeId: 's1', from: 0, done: false, by: teacher.id });
    expect(seen[2]).toMatchObject({ type: 'ink', strokeId: 's1', from: 3, done: true });
    expect(seen[3]).toMatchObject({ type: 'ink', strokeId: 'h1', tool: 'highlighter' });
    expect(seen[4]).toEqual({ type: 'pointer', roomId: classId, x: 0.5, y: 0.25, by: teacher.id });

    // A late joiner reads the stage and every stroke whole (ink waiting to be written included).
    const late = await board(student, classId);
    expect(late).toMatchObject({ live: true, stage: { material_id: materialId, page: 2, blank_pages: 0 } });
    expect(late.strokes.map((stroke) => [stroke.stroke_id, stroke.points.length, stroke.done])).toEqual([
      ['s1', 5, true],
      ['h1', 2, true],
    ]);

    // Erase one, then a blank page, then clear the material's page.
    expect(
      await teacherClient.request(BOARD_ERASE_DESTINATION, {
        roomId: classId,
        materialId,
        page: 2,
        strokeIds: ['h1'],
      }),
    ).toBeNull();
    expect((await board(student, classId)).strokes.map((stroke) => stroke.stroke_id)).toEqual(['s1']);
    expect(
      await teacherClient.request(BOARD_PAGE_DESTINATION, { roomId: classId, materialId: 0, page: 1 }),
    ).toBeNull();
    const blank = { materialId: 0, page: 1, strokeId: 'w1' };
    expect(
      await teacherClient.request(BOARD_INK_DESTINATION, penPiece(classId, blank, 4, { done: true })),
    ).toBeNull();
    expect(
      await teacherClient.request(BOARD_CLEAR_DESTINATION, { roomId: classId, materialId, page: 2 }),
    ).toBeNull();
    const after = await board(student, classId);
    expect(after.stage).toEqual({ material_id: 0, page: 1, blank_pages: 1, layout: 'board' });
    expect(after.strokes.map((stroke) => stroke.stroke_id)).toEqual(['w1']);
    await eventually(() => expect(seen.at(-1)).toMatchObject({ type: 'clear', materialId, page: 2 }));
  });

  it('refuses writing by an uninvited student, outside a lecture, on a missing page, and too long a stroke', async () => {
    const { classId, teacher, student } = await createChatClass(app);
    const materialId = await insertReadyMaterial(app, classId, ['a', 'b', 'c']);
    const other = await createChatClass(app);
    const foreign = await insertReadyMaterial(app, other.classId, ['x']);
    const teacherClient = await joined(teacher, classId);
    const studentClient = await joined(student, classId);
    const at = { materialId, page: 1, strokeId: 'a' };

    const notLive = await teacherClient.request(BOARD_INK_DESTINATION, penPiece(classId, at, 2));
    expect(notLive).toMatchObject({ code: 'not-live', message: '라이브 수업 중에만 판서할 수 있어요.' });
    await openLiveSession(app, classId);

    expect(await studentClient.request(BOARD_INK_DESTINATION, penPiece(classId, at, 2))).toMatchObject({
      code: 'teacher-only',
      message: '선생님이 판서를 허락한 수강생만 쓸 수 있어요.',
    });
    expect(
      await studentClient.request(BOARD_PAGE_DESTINATION, { roomId: classId, materialId, page: 1 }),
    ).toMatchObject({ code: 'teacher-only' });
    expect(
      await studentClient.request(BOARD_POINTER_DESTINATION, { roomId: classId, x: 0, y: 0 }),
    ).toMatchObject({
      code: 'teacher-only',
    });

    const badPages: [number, number][] = [
      [materialId, 4],
      [foreign, 1],
      [0, 2],
      [0, 51],
    ];
    for (const [id, page] of badPages) {
      const refused = await teacherClient.request(BOARD_PAGE_DESTINATION, {
        roomId: classId,
        materialId: id,
        page,
      });
      expect(refused, `${id}/${page}`).toMatchObject({
        code: 'bad-request',
        message: '없는 쪽이에요. 자료를 다시 골라 주세요.',
      });
    }
    expect(
      await teacherClient.request(BOARD_INK_DESTINATION, penPiece(classId, { ...at, page: 4 }, 2)),
    ).toMatchObject({ code: 'bad-request' });
    // A piece over 200 points fails the contract; a stroke over 4 000 points fails from the piece that passes it.
    expect(await teacherClient.request(BOARD_INK_DESTINATION, penPiece(classId, at, 201))).toMatchObject({
      code: 'bad-request',
    });
    for (let from = 0; from < MAX_POINTS_PER_STROKE; from += 200) {
      expect(
        await teacherClient.request(BOARD_INK_DESTINATION, penPiece(classId, at, 200, { from })),
      ).toBeNull();
    }
    expect(
      await teacherClient.request(
        BOARD_INK_DESTINATION,
        penPiece(classId, at, 1, { from: MAX_POINTS_PER_STROKE }),
      ),
    ).toMatchObject({ code: 'bad-request', message: '한 획이 너무 길어요. 펜을 떼고 이어서 써 주세요.' });
    const done = { materialId, page: 1, strokeId: 'done' };
    await teacherClient.request(BOARD_INK_DESTINATION, penPiece(classId, done, 2, { done: true }));
    expect(await teacherClient.request(BOARD_INK_DESTINATION, penPiece(classId, done, 2))).toMatchObject({
      code: 'bad-request',
      message: '이미 끝난 획이에요.',
    });
    const textless = { ...penPiece(classId, { ...at, strokeId: 't' }, 1), tool: 'text' };
    expect(await teacherClient.request(BOARD_INK_DESTINATION, textless)).toMatchObject({
      code: 'bad-request',
    });
    const badColour = { ...penPiece(classId, { ...at, strokeId: 'c' }, 1), color: 'red' };
    expect(await teacherClient.request(BOARD_INK_DESTINATION, badColour)).toMatchObject({
      code: 'bad-request',
    });
  });

  it('keeps a stranger out of the topic and paces a writer who sends too fast', async () => {
    const { classId, teacher, stranger } = await createChatClass(app);
    await openLiveSession(app, classId);
    const strangerClient = member(stranger);
    await strangerClient.watch(boardTopic(classId));
    await strangerClient.closed();
    const read = await app.inject({ url: `/api/classes/${classId}/board`, headers: bearer(stranger) });
    expect(read.statusCode).toBe(418);

    const teacherClient = await joined(teacher, classId);
    const answers = [];
    for (let index = 0; index < 70; index += 1) {
      answers.push(
        await teacherClient.request(BOARD_POINTER_DESTINATION, { roomId: classId, x: 0.1, y: 0.1 }),
      );
    }
    expect(answers.filter((answer) => answer?.code === 'rate-limited').length).toBeGreaterThan(0);
  });

  it('lets the student the teacher invites from the raised hands write, until the teacher takes it back', async () => {
    const { classId, teacher, student } = await createChatClass(app);
    const other = await enrolStudent(app, classId);
    const materialId = await insertReadyMaterial(app, classId, ['첫 쪽', '둘째 쪽', null]);
    await openLiveSession(app, classId);
    const teacherClient = await joined(teacher, classId);
    const studentClient = await joined(student, classId);
    const otherClient = await joined(other, classId);
    const seen = (await studentClient.watch(boardTopic(classId))) as BoardEvent[];
    const othersSeen = (await otherClient.watch(boardTopic(classId))) as BoardEvent[];
    const teacherSeen = (await teacherClient.watch(boardTopic(classId))) as BoardEvent[];
    const invite = { roomId: classId, userId: student.id };
    expect(await teacherClient.request(BOARD_WRITER_DESTINATION, invite)).toMatchObject({
      code: 'not-found',
    });
    expect(await studentClient.request(HAND_RAISE_DESTINATION, { roomId: classId, raised: true })).toBeNull();
    expect(await studentClient.request(BOARD_WRITER_DESTINATION, invite)).toMatchObject({
      code: 'teacher-only',
    });
    expect(await teacherClient.request(BOARD_WRITER_DESTINATION, invite)).toBeNull();
    await eventually(() =>
      expect(seen.at(-1)).toEqual({
        type: 'writer',
        roomId: classId,
        writer: { userId: student.id, nickname: student.nickname },
      }),
    );
    await teacherClient.request(BOARD_PAGE_DESTINATION, { roomId: classId, materialId: 0, page: 1 });
    const at = { materialId: 0, page: 1, strokeId: 'mine' };
    expect(
      await studentClient.request(BOARD_INK_DESTINATION, penPiece(classId, at, 3, { done: true })),
    ).toBeNull();
    expect((await board(teacher, classId)).writer).toEqual({
      user_id: student.id,
      nickname: student.nickname,
    });
    // Whatever the page on stage is, a material's in the layout beside the screen share too, the student writes
    // there: everyone gets the ink, and it is stored with the writer's id.
    expect(
      await teacherClient.request(BOARD_PAGE_DESTINATION, {
        roomId: classId,
        materialId,
        page: 3,
        layout: 'side',
      }),
    ).toBeNull();
    const onMaterial = { materialId, page: 3, strokeId: 'theirs' };
    expect(await studentClient.request(BOARD_INK_DESTINATION, penPiece(classId, onMaterial, 2))).toBeNull();
    expect(
      await studentClient.request(
        BOARD_INK_DESTINATION,
        penPiece(classId, onMaterial, 2, { from: 2, done: true }),
      ),
    ).toBeNull();
    for (const events of [teacherSeen, othersSeen]) {
      await eventually(() =>
        expect(events.filter((e) => e.type === 'ink' && e.strokeId === 'theirs')).toMatchObject([
          { materialId, page: 3, from: 0, by: student.id },
          { materialId, page: 3, from: 2, done: true, by: student.id },
        ]),
      );
    }
    const late = await board(other, classId);
    expect(late.stage).toEqual({ material_id: materialId, page: 3, blank_pages: 1, layout: 'side' });
    expect(late.strokes.filter((s) => s.by === student.id).map((s) => [s.stroke_id, s.page])).toEqual([
      ['mine', 1],
      ['theirs', 3],
    ]);
    expect(late.strokes.find((s) => s.stroke_id === 'theirs')?.points).toHaveLength(4);
    // A page turn keeps the layout.
    expect(
      await teacherClient.request(BOARD_PAGE_DESTINATION, { roomId: classId, materialId, page: 2 }),
    ).toBeNull();
    await eventually(() =>
      expect(othersSeen.at(-1)).toEqual({
        type: 'stage',
        roomId: classId,
        stage: { materialId, page: 2, blankPages: 1, layout: 'side' },
      }),
    );
    expect(
      await teacherClient.request(BOARD_WRITER_DESTINATION, { roomId: classId, userId: null }),
    ).toBeNull();
    expect(
      await studentClient.request(BOARD_INK_DESTINATION, penPiece(classId, { ...at, strokeId: 'more' }, 1)),
    ).toMatchObject({ code: 'teacher-only' });
  });

  it('gives the replay the page changes and strokes with offsets, and chapters the teacher renames', async () => {
    const { classId, teacher, student } = await createChatClass(app);
    const materialId = await insertReadyMaterial(app, classId, ['도입', '핵심 개념']);
    const sessionId = await openLiveSession(app, classId);
    const teacherClient = await joined(teacher, classId);
    // Page 2 goes beside the screen share, the blank page keeps that layout, page 1 comes back instead of it.
    for (const [id, page, layout] of [
      [materialId, 1, undefined],
      [materialId, 2, 'side'],
      [0, 1, undefined],
      [materialId, 1, 'board'],
    ] as const) {
      expect(
        await teacherClient.request(BOARD_PAGE_DESTINATION, {
          roomId: classId,
          materialId: id,
          page,
          layout,
        }),
      ).toBeNull();
    }
    await teacherClient.request(
      BOARD_INK_DESTINATION,
      penPiece(classId, { materialId, page: 1, strokeId: 'k' }, 2, { done: true }),
    );
    // The stays, as if they lasted: 12 s on page 1, 3 s on page 2, 20 s on the blank page, then page 1 again.
    const stages = await app.db.select().from(boardStages).where(eq(boardStages.sessionId, sessionId));
    const start = Date.now() - 60_000;
    const offsets = [1_000, 13_000, 16_000, 36_000];
    for (const [index, stage] of stages.entries()) {
      await app.db
        .update(boardStages)
        .set({ at: new Date(start + (offsets[index] ?? 0)) })
        .where(eq(boardStages.id, stage.id));
    }
    await app.db
      .update(liveSessions)
      .set({ startedAt: new Date(start) })
      .where(eq(liveSessions.id, sessionId));
    await endLiveSession(app, sessionId);

    const url = `/api/classes/${classId}/sessions/${sessionId}`;
    const replay = (await app.inject({ url: `${url}/board`, headers: bearer(student) })).json<{
      data: SessionBoard;
    }>().data;
    expect(
      replay.stages.map((stage) => [stage.offset_ms, stage.material_id, stage.page, stage.layout]),
    ).toEqual([
      [1_000, materialId, 1, 'board'],
      [13_000, materialId, 2, 'side'],
      [16_000, 0, 1, 'side'],
      [36_000, materialId, 1, 'board'],
    ]);
    // A page change stored before layouts were kept (no layout) reads as the page instead of the screen share.
    await app.db
      .update(boardStages)
      .set({ layout: null })
      .where(eq(boardStages.id, stages[1]?.id ?? 0));
    const older = (await app.inject({ url: `${url}/board`, headers: bearer(student) })).json<{
      data: SessionBoard;
    }>().data;
    expect(older.stages.map((stage) => stage.layout)).toEqual(['board', 'board', 'side', 'board']);
    expect(replay.strokes[0]).toMatchObject({ stroke_id: 'k', erased_offset_ms: null });
    expect(replay.strokes[0]?.offset_ms).toBeGreaterThan(36_000);

    const chapters = (await app.inject({ url: `${url}/chapters`, headers: bearer(student) })).json<{
      data: Chapter[];
    }>().data;
    expect(chapters.map((chapter) => [chapter.offset_ms, chapter.title, chapter.renamed])).toEqual([
      [1_000, '도입', false],
      [16_000, '빈 페이지 1', false],
      [36_000, '도입', false],
    ]);
    const rename = { chapters: [{ id: chapters[1]?.id, title: '판서 풀이' }] };
    const byStudent = await app.inject({
      method: 'PATCH',
      url: `${url}/chapters`,
      headers: bearer(student),
      payload: rename,
    });
    expect(byStudent.statusCode).toBe(418);
    const renamed = await app.inject({
      method: 'PATCH',
      url: `${url}/chapters`,
      headers: bearer(teacher),
      payload: rename,
    });
    expect(renamed.json<{ data: Chapter[] }>().data[1]).toMatchObject({ title: '판서 풀이', renamed: true });
  });
});
