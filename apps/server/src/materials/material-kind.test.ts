import { describe, expect, it } from 'vitest';
import { makeOdp, makePdf, makeZip } from '../../test/documents.ts';
import { MaterialError } from './material-errors.ts';
import { materialKind } from './material-kind.ts';

const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
const zipOf = (name: string) => makeZip([{ name, data: Buffer.from('<xml/>') }]);

describe('materialKind', () => {
  it.each([
    ['a PDF, whatever its name', makePdf(['a']), 'slides.pptx', 'pdf'],
    ['a PowerPoint zip', zipOf('ppt/presentation.xml'), 'a.pptx', 'pptx'],
    ['a Word zip', zipOf('word/document.xml'), 'a.docx', 'docx'],
    ['an OpenDocument presentation', makeOdp(['a']), 'a.odp', 'odp'],
    ['a legacy PowerPoint', OLE, 'old.PPT', 'ppt'],
  ])('knows %s', async (_, bytes, name, kind) => {
    expect(await materialKind(bytes, name)).toBe(kind);
  });

  it.each([
    ['a legacy Word file (same header as .ppt)', OLE, 'old.doc', 415],
    ['a spreadsheet zip', zipOf('xl/workbook.xml'), 'a.pptx', 415],
    ['a PNG named .pdf', Buffer.from('\x89PNG\r\n\x1a\n'), 'a.pdf', 415],
    ['a cut-off zip', zipOf('ppt/presentation.xml').subarray(0, 50), 'a.pptx', 400],
  ])('refuses %s', async (_, bytes, name, status) => {
    const refused = await materialKind(bytes, name).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MaterialError);
    expect((refused as MaterialError).status).toBe(status);
    expect((refused as MaterialError).messageKor).toMatch(/[가-힣]/);
  });
});
