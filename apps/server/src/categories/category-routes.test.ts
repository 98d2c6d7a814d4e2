import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORY_NAMES } from '@sea/contract/categories';
import { buildTestApp } from '../../test/helper.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

describe('GET /api/categories', () => {
  it('answers the 25 categories as a bare array, ids 1..25 in order', async () => {
    const response = await app.inject('/api/categories');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(CATEGORY_NAMES.map((name, i) => ({ id: i + 1, name })));
  });
});
