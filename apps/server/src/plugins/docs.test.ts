import type { FastifyInstance, HTTPMethods } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@sea/contract/paths';
import { buildTestApp } from '../../test/helper.ts';

let app: FastifyInstance;
beforeAll(async () => {
  // The dev login provider is on (no Kakao key), so its authorize route exists too.
  app = await buildTestApp();
});
afterAll(() => app.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The methods of every path of the contract's ROUTES table. A Record over its keys: a path added to the
 * contract without a line here does not typecheck.
 */
const METHODS: Record<keyof typeof ROUTES, Method[]> = {
  health: ['GET'],
  ready: ['GET'],
  metrics: ['GET'],
  // The OpenAPI description and Swagger UI themselves, and the uploaded files: not operations of the API.
  docs: [],
  uploads: [],
  appKey: ['GET'],
  kakaoCallback: ['GET'],
  refresh: ['POST'],
  signup: ['GET', 'POST', 'DELETE'],
  devAuthorize: ['GET'],
  users: ['GET', 'PATCH'],
  checkNickname: ['GET'],
  myLiveClasses: ['GET'],
  calendarUrl: ['GET'],
  calendarUrlReset: ['POST'],
  calendarFeed: ['GET'],
  classQuestions: ['GET'],
  classHands: ['GET'],
  classPolls: ['GET'],
  materials: ['GET', 'POST'],
  material: ['GET', 'PATCH', 'DELETE'],
  materialSearch: ['GET'],
  materialFile: ['GET'],
  classBoard: ['GET'],
  sessionBoard: ['GET'],
  sessionChapters: ['GET', 'POST', 'PATCH'],
  sessionChapter: ['PATCH', 'DELETE'],
  sessionNotes: ['GET', 'POST'],
  sessionNote: ['PATCH', 'DELETE'],
  classNotes: ['GET'],
  categories: ['GET'],
  classes: ['GET', 'POST'],
  class: ['GET', 'PATCH'],
  classDelete: ['DELETE'],
  classRole: ['GET'],
  classActive: ['GET', 'PATCH'],
  liveTicket: ['GET'],
  dashboard: ['GET'],
  dashboardStudents: ['GET'],
  enroll: ['POST', 'DELETE'],
  schedule: ['GET', 'POST', 'DELETE'],
  upcomingSchedule: ['GET'],
  scheduleIcs: ['GET'],
  reviews: ['GET', 'POST'],
  reviewSummary: ['GET'],
  review: ['PATCH', 'DELETE'],
  reviewReply: ['POST'],
  instructor: ['GET'],
  searchSuggest: ['GET'],
  notifications: ['GET'],
  notificationsRead: ['POST'],
  notificationStream: ['GET'],
  chatHistory: ['GET'],
  mediaNodeReport: ['PUT'],
  sessions: ['GET'],
  session: ['GET', 'PATCH', 'DELETE'],
  sessionChat: ['GET'],
  sessionClassroom: ['GET'],
  sessionWatch: ['POST'],
  sessionRemake: ['POST'],
  attendance: ['GET'],
  progress: ['GET'],
  replayMp4: ['GET'],
  replayPlaylist: ['GET'],
  replaySegment: ['GET'],
};

type Operation = {
  summary?: string;
  tags?: string[];
  responses?: Record<string, unknown>;
  requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
};
type Doc = { paths: Record<string, Record<string, Operation>> };

const openApiPath = (pattern: string) => pattern.replace(/:([A-Za-z]+)/g, '{$1}');
const OPERATIONS = Object.entries(METHODS).flatMap(([key, methods]) =>
  methods.map((method) => [method, ROUTES[key as keyof typeof ROUTES]] as const),
);

describe('OpenAPI description', () => {
  let doc: Doc;
  beforeAll(async () => {
    const response = await app.inject('/api/docs/json');
    expect(response.statusCode).toBe(200);
    doc = response.json<Doc>();
  });

  it.each(OPERATIONS)('describes %s %s, a route the server has', (method, path) => {
    expect(app.hasRoute({ method: method as HTTPMethods, url: path })).toBe(true);
    const operation = doc.paths[openApiPath(path)]?.[method.toLowerCase()];
    expect(operation?.summary).toMatch(/\S/);
    expect(operation?.tags?.length).toBeGreaterThan(0);
    // 200, or 202 for a route that answers before its work is done (a material's upload).
    expect(Object.keys(operation?.responses ?? {}).filter((code) => /^20[02]$/.test(code))).toHaveLength(1);
  });

  it('describes exactly those operations on those paths, nothing the table leaves out', () => {
    const described = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const expected = OPERATIONS.map(([method, path]) => `${method} ${openApiPath(path)}`);
    expect(described.sort()).toEqual(expected.sort());
  });

  it.each([
    ['post', ROUTES.classes, 'classroomCreateDto'],
    ['patch', ROUTES.class, 'classroomUpdateDto'],
    ['post', ROUTES.signup, 'signupRequestDto'],
    ['patch', ROUTES.users, 'userUpdateDTO'],
  ])('describes the multipart body of %s %s: its JSON part %s and imagefile', (method, path, part) => {
    const body = doc.paths[openApiPath(path)]?.[method]?.requestBody?.content['multipart/form-data'];
    expect(Object.keys(body?.schema.properties ?? {})).toEqual([part, 'imagefile']);
  });

  // Write-limited routes (writeLimit in plugins/rate-limit.ts) say so: a client learns of the 429 from the docs.
  it.each([
    ['post', ROUTES.classes],
    ['patch', ROUTES.class],
    ['post', ROUTES.signup],
    ['patch', ROUTES.users],
    ['post', ROUTES.reviews],
    ['patch', ROUTES.review],
    ['post', ROUTES.reviewReply],
    ['post', ROUTES.enroll],
    ['delete', ROUTES.enroll],
  ])('lists the 429 of the write-limited %s %s', (method, path) => {
    expect(Object.keys(doc.paths[openApiPath(path)]?.[method]?.responses ?? {})).toContain('429');
  });

  it('serves Swagger UI', async () => {
    expect((await app.inject(ROUTES.docs)).statusCode).toBe(200);
  });
});
