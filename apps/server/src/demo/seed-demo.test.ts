import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassItem } from '@sea/contract/classes';
import { expectOk } from '../../test/expect-envelope.ts';
import { buildTestApp } from '../../test/helper.ts';
import { enrolments } from '../db/schema.ts';
import { seedDemo } from './seed-demo.ts';

let app: FastifyInstance;
const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-demo-'));
beforeAll(async () => {
  app = await buildTestApp({ demoData: true, uploadDir });
});
afterAll(async () => {
  await app.close();
  fs.rmSync(uploadDir, { recursive: true, force: true });
});

describe('demo data', () => {
  it('seeds ten classes with loadable banners, none live (nobody broadcasts), exact student counts', async () => {
    const page = expectOk<ClassItem[]>(await app.inject('/api/classes?page=0'));
    expect(page).toHaveLength(10);
    expect(page.filter((c) => c.is_active)).toEqual([]);
    for (const item of page) {
      const [row] = await app.db
        .select({ n: count() })
        .from(enrolments)
        .where(eq(enrolments.classId, item.id));
      expect(item.student_count).toBe(row?.n);
      const banner = await app.inject(item.banner_image_path ?? 'missing');
      expect(banner.statusCode).toBe(200);
      expect(banner.headers['content-type']).toBe('image/jpeg');
    }
    const top = expectOk<ClassItem[]>(await app.inject('/api/classes?target=topten'));
    expect(top[0]?.student_count).toBe(6);
  });

  it('does nothing on a database that already has accounts, leaving no stray banner files', async () => {
    const before = fs.readdirSync(path.join(uploadDir, 'banners')).length;
    expect(await seedDemo(app.db, app.storage)).toBe(false);
    expect(fs.readdirSync(path.join(uploadDir, 'banners'))).toHaveLength(before);
    expect(expectOk<ClassItem[]>(await app.inject('/api/classes?page=0'))).toHaveLength(10);
  });
});
