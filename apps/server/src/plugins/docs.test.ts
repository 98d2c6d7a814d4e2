import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helper.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

type Operation = {
  requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
};

describe('OpenAPI description', () => {
  it('describes every classes route, multipart bodies included, and serves Swagger UI', async () => {
    const response = await app.inject('/api/docs/json');
    expect(response.statusCode).toBe(200);
    const doc = response.json() as { paths: Record<string, Record<string, Operation>> };
    for (const [path, method] of [
      ['/api/categories', 'get'],
      ['/api/classes', 'get'],
      ['/api/classes', 'post'],
      ['/api/classes/{classId}', 'patch'],
      ['/api/classes/{classId}/delete', 'delete'],
      ['/api/classes/{classId}/isActive', 'patch'],
      ['/api/classes/{classId}/live-ticket', 'get'],
      ['/api/classes/{classId}/dashboard/students', 'get'],
      ['/api/classes/{classId}/enroll', 'post'],
      ['/api/classes/{classId}/schedule', 'delete'],
      ['/internal/classes/{classId}/live', 'put'],
      ['/health', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const create = doc.paths['/api/classes']?.post?.requestBody?.content['multipart/form-data'];
    expect(Object.keys(create?.schema.properties ?? {})).toEqual(['classroomCreateDto', 'imagefile']);
    expect((await app.inject('/api/docs')).statusCode).toBe(200);
  });
});
