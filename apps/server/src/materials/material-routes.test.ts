import { readdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Material, MaterialDetail } from '@sea/contract/materials';
import { makeOdp, makePdf, makePptx, makeZip } from '../../test/documents.ts';
import { expectError } from '../../test/expect-envelope.ts';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';
import { multipart } from '../../test/multipart.ts';
import { skipNotice } from '../../test/skip-notice.ts';
import { findPdfTools } from './pdf-tools.ts';

const tools = findPdfTools();
if (tools === null) {
  if (process.env.CI === 'true')
    throw new Error('poppler-utils is required (CI=true): apt-get install poppler-utils');
  skipNotice('materials: no poppler-utils (pdfinfo, pdftoppm, pdftotext); these tests are skipped');
}

let app: FastifyInstance;
let teacher: TestUser;
let student: TestUser;
let stranger: TestUser;
let classId: number;

beforeAll(async () => {
  app = await buildTestApp({ jobConcurrency: 1, jobs: { pollMs: 50 } });
  teacher = await createUser(app);
  student = await createUser(app);
  stranger = await createUser(app);
  classId = await insertClass(app, teacher.id);
  await insertEnrolment(app, classId, student.id);
});
afterAll(() => app?.close());

const url = (suffix = '') => `/api/classes/${classId}/materials${suffix}`;

function upload(user: TestUser | null, bytes: Buffer, filename: string) {
  const form = multipart([{ name: 'file', value: bytes, filename, contentType: 'application/octet-stream' }]);
  const auth = user === null ? {} : bearer(user);
  return app.inject({
    method: 'POST',
    url: url(),
    payload: form.payload,
    headers: { ...form.headers, ...auth },
  });
}

/** Reads the material until its conversion is over (bounded: the job runs in this app). */
async function settled(id: number, timeoutMs = 90_000): Promise<MaterialDetail> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const response = await app.inject({ method: 'GET', url: url(`/${id}`), headers: bearer(teacher) });
    const detail = (response.json() as { data: MaterialDetail }).data;
    if (detail.state !== 'converting') return detail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the conversion did not end');
}

async function storedFolders(): Promise<string[]> {
  return readdir(path.join(app.config.dataDir, 'files', 'materials')).catch(() => []);
}

describe.skipIf(tools === null)('materials', () => {
  it('a 3-page PDF becomes pages with images, thumbnails and titles; members read it, strangers do not', async () => {
    const response = await upload(teacher, makePdf(['Page one', 'Page two', 'Page three']), '1강 자료.pdf');
    expect(response.statusCode, response.body).toBe(202);
    const created = (response.json() as { data: Material }).data;
    expect(created).toMatchObject({
      name: '1강 자료',
      kind: 'pdf',
      state: 'converting',
      downloadable: false,
    });

    const detail = await settled(created.id);
    expect(detail).toMatchObject({ state: 'ready', progress: 100, error: null });
    expect(detail.pages.map((page) => page.title)).toEqual(['Page one', 'Page two', 'Page three']);
    const [first] = detail.pages;
    expect(first).toMatchObject({ number: 1, width: 2560, height: 1920 });

    const image = await app.inject({ method: 'GET', url: first?.image_url ?? '' });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 2560 });
    const thumbnail = await app.inject({ method: 'GET', url: first?.thumbnail_url ?? '' });
    expect((await sharp(thumbnail.rawPayload).metadata()).width).toBe(320);
    // One page's signature opens no other kind of file, and an altered one nothing.
    const forged = (first?.image_url ?? '').replace(/page-1\.webp/, 'material.pdf');
    expect((await app.inject({ method: 'GET', url: forged })).statusCode).toBe(403);
    const altered = (first?.image_url ?? '').replace(/sig=./, 'sig=A');
    expect((await app.inject({ method: 'GET', url: altered })).statusCode).toBe(403);

    // Students read the list and the pages; the PDF only once the teacher allows it.
    const list = await app.inject({ method: 'GET', url: url(), headers: bearer(student) });
    const seen = (list.json() as { data: Material[] }).data.find((each) => each.id === created.id);
    expect(seen).toMatchObject({ state: 'ready', pages: 3, download_url: null });
    const patched = await app.inject({
      method: 'PATCH',
      url: url(`/${created.id}`),
      headers: bearer(teacher),
      payload: { downloadable: true, name: '1강' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const again = await app.inject({ method: 'GET', url: url(`/${created.id}`), headers: bearer(student) });
    const shared = (again.json() as { data: MaterialDetail }).data;
    expect(shared.name).toBe('1강');
    const pdf = await app.inject({ method: 'GET', url: `${shared.download_url}&download=1` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.headers['content-disposition']).toContain("filename*=UTF-8''1%EA%B0%95.pdf");

    // The find box: pages whose text holds every word (any part of a word, any case), members only.
    const find = (user: TestUser | null, q: string) =>
      app.inject({
        method: 'GET',
        url: url(`/${created.id}/search?q=${encodeURIComponent(q)}`),
        headers: user ? bearer(user) : {},
      });
    const found = async (q: string) => {
      const answer = await find(student, q);
      expect(answer.statusCode, answer.body).toBe(200);
      return (answer.json() as { data: { pages: number[] } }).data.pages;
    };
    expect(await found('page')).toEqual([1, 2, 3]);
    expect(await found('TW')).toEqual([2]);
    expect(await found('page th')).toEqual([3]);
    expect(await found('100%')).toEqual([]);
    expectError(await find(student, '   '), 400);
    expectError(await find(student, 'x'.repeat(51)), 400);
    expectError(await find(stranger, 'page'), 418);
    expectError(await find(null, 'page'), 401);
    // Class search never reads materials' text.
    const classes = await app.inject({
      method: 'GET',
      url: `/api/classes?q=${encodeURIComponent('Page three')}`,
    });
    expect(classes.statusCode, classes.body).toBe(200);
    expect((classes.json() as { data: { id: number }[] }).data.map((item) => item.id)).not.toContain(classId);

    expectError(await app.inject({ method: 'GET', url: url(), headers: bearer(stranger) }), 418);
    expectError(await app.inject({ method: 'GET', url: url(`/${created.id}`) }), 401);
    expectError(await upload(student, makePdf(['x']), 'x.pdf'), 418);
    expectError(await upload(null, makePdf(['x']), 'x.pdf'), 401);
    const byStudent = await app.inject({
      method: 'PATCH',
      url: url(`/${created.id}`),
      headers: bearer(student),
      payload: { downloadable: false },
    });
    expectError(byStudent, 418);

    // Deleting takes its files along.
    const folders = await storedFolders();
    const deleted = await app.inject({
      method: 'DELETE',
      url: url(`/${created.id}`),
      headers: bearer(teacher),
    });
    expect(deleted.statusCode).toBe(200);
    expect((await storedFolders()).length).toBe(folders.length - 1);
    expect((await app.inject({ method: 'GET', url: first?.image_url ?? '' })).statusCode).toBe(404);
  });

  it('bad files get a Korean reason and leave nothing behind', async () => {
    const before = await storedFolders();
    const bomb = makeZip([{ name: 'ppt/presentation.xml', data: Buffer.alloc(210 * 1024 * 1024) }], 1000);
    const cases: [Buffer, string, 400 | 413 | 415, RegExp][] = [
      [Buffer.from('hello, not a document'), 'notes.pdf', 415, /PDF/],
      [makePdf(['Secret'], { encrypted: true }), 'secret.pdf', 400, /암호/],
      [Buffer.from('%PDF-1.4\nthis is no pdf at all\n'), 'broken.pdf', 400, /손상/],
      [makePdf(Array.from({ length: 301 }, (_, index) => `p${index}`)), 'long.pdf', 400, /300쪽/],
      [bomb, 'bomb.pptx', 400, /압축/],
      [
        makeZip([{ name: 'word/document.xml', data: Buffer.alloc(10) }]).subarray(0, 40),
        'cut.docx',
        400,
        /손상/,
      ],
      [Buffer.alloc(50 * 1024 * 1024 + 1, 0x25), 'huge.pdf', 413, /50MB/],
    ];
    for (const [bytes, name, status, reason] of cases) {
      const body = expectError(await upload(teacher, bytes, name), status);
      expect(body.message_kor, name).toMatch(reason);
    }
    expectError(await app.inject({ method: 'POST', url: url(), headers: bearer(teacher), payload: {} }), 400);
    expect(await storedFolders()).toEqual(before);
    const list = await app.inject({ method: 'GET', url: url(), headers: bearer(teacher) });
    expect((list.json() as { data: Material[] }).data).toEqual([]);
  });

  it.skipIf(tools?.soffice === null)(
    'a PowerPoint file is converted by LibreOffice',
    async () => {
      // A .pptx zipped here (no binary fixture), as PowerPoint writes one: a slide per line.
      const pptx = makePptx(['첫 슬라이드', 'Second slide']);
      const response = await upload(teacher, pptx, 'slides.pptx');
      expect(response.statusCode, response.body).toBe(202);
      const detail = await settled((response.json() as { data: Material }).data.id, 150_000);
      expect(detail.state, detail.error ?? '').toBe('ready');
      expect(detail.kind).toBe('pptx');
      expect(detail.pages.map((page) => page.title)).toEqual(['첫 슬라이드', 'Second slide']);
    },
    180_000,
  );
});

describe.skipIf(tools === null)('materials without LibreOffice', () => {
  it('an office file is refused with the reason, a PDF still works', async () => {
    const bare = await buildTestApp({}, (built) => {
      built.pdfTools = built.pdfTools && { ...built.pdfTools, soffice: null };
    });
    try {
      const teacherHere = await createUser(bare);
      const classHere = await insertClass(bare, teacherHere.id);
      const send = (bytes: Buffer, filename: string) => {
        const form = multipart([{ name: 'file', value: bytes, filename }]);
        return bare.inject({
          method: 'POST',
          url: `/api/classes/${classHere}/materials`,
          payload: form.payload,
          headers: { ...form.headers, ...bearer(teacherHere) },
        });
      };
      const body = expectError(await send(makeOdp(['a']), 'a.odp'), 415);
      expect(body.message_kor).toMatch(/LibreOffice/);
      expect((await send(makePdf(['a']), 'a.pdf')).statusCode).toBe(202);
    } finally {
      await bare.close();
    }
  });
});
