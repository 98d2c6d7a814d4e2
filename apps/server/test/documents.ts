import { crc32, deflateRawSync } from 'node:zlib';

// Documents made at run time for the materials' tests: PDFs written object by object, zips written entry by
// entry, and office files (.odp, .pptx) zipped from their XML as their programs write them.

/**
 * A PDF with one landscape page (4:3) per text, each page's text on its first line. `encrypted` adds a
 * standard security handler whose user password nobody knows (poppler then refuses to open it).
 */
export function makePdf(texts: readonly string[], options: { encrypted?: boolean } = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) - 1 + 1;
  const catalog = add('<< /Type /Catalog /Pages 2 0 R >>');
  add('PAGES');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids: number[] = [];
  for (const text of texts) {
    const stream = `BT /F1 36 Tf 60 500 Td (${text.replace(/[()\\]/g, '\\$&')}) Tj ET`;
    const content = add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 800 600] /Contents ${content} 0 R ` +
          `/Resources << /Font << /F1 ${font} 0 R >> >> >>`,
      ),
    );
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const encrypt = options.encrypted
    ? add(`<< /Filter /Standard /V 1 /R 2 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> /P -4 >>`)
    : null;
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(pdf));
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf);
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  const id = `/ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]`;
  const extra = encrypt === null ? '' : ` /Encrypt ${encrypt} 0 R ${id}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R${extra} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * A zip of these entries (deflated, or `stored`), declaring `declaredSize` as every entry's unpacked size when
 * given (a zip bomb's lie).
 */
export function makeZip(
  entries: { name: string; data: Buffer; stored?: boolean }[],
  declaredSize?: number,
): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const packed = entry.stored ? entry.data : deflateRawSync(entry.data);
    const method = entry.stored ? 0 : 8;
    const name = Buffer.from(entry.name);
    const size = declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc32(entry.data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const head = Buffer.alloc(46);
    head.writeUInt32LE(0x02014b50, 0);
    head.writeUInt16LE(20, 6);
    head.writeUInt16LE(method, 10);
    head.writeUInt32LE(crc32(entry.data), 16);
    head.writeUInt32LE(packed.length, 20);
    head.writeUInt32LE(size, 24);
    head.writeUInt16LE(name.length, 28);
    head.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    central.push(head, name);
    offset += 30 + name.length + packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const OFFICE_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" ' +
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" ' +
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" ' +
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"';

function flatPresentation(lines: readonly string[]): string {
  const slides = lines
    .map(
      (line, index) =>
        `<draw:page draw:name="s${index + 1}"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" ` +
        `svg:height="3cm"><draw:text-box><text:p>${line}</text:p></draw:text-box></draw:frame></draw:page>`,
    )
    .join('');
  return (
    `<?xml version="1.0" encoding="UTF-8"?><office:document ${OFFICE_NS} office:version="1.2" ` +
    `office:mimetype="application/vnd.oasis.opendocument.presentation"><office:body>` +
    `<office:presentation>${slides}</office:presentation></office:body></office:document>`
  );
}

/** An OpenDocument presentation with one slide per line, zipped here (LibreOffice opens it as `.odp`). */
export function makeOdp(lines: readonly string[]): Buffer {
  const manifest =
    '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest ' +
    'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
    '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.presentation"/>' +
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>';
  const content = flatPresentation(lines)
    .replace('<office:document ', '<office:document-content ')
    .replace('</office:document>', '</office:document-content>')
    .replace(/ office:mimetype="[^"]*"/, '');
  return makeZip([
    { name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.presentation'), stored: true },
    { name: 'content.xml', data: Buffer.from(content) },
    { name: 'META-INF/manifest.xml', data: Buffer.from(manifest) },
  ]);
}

const PPTX_NS = {
  p: 'http://schemas.openxmlformats.org/presentationml/2006/main',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
};
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

/**
 * A PowerPoint file with one slide per line, zipped here without LibreOffice (a few KB, made at once): only the
 * parts LibreOffice needs to open it (no master, layout or theme; PowerPoint itself would want them).
 */
export function makePptx(lines: readonly string[]): Buffer {
  const ns = `xmlns:a="${PPTX_NS.a}" xmlns:r="${PPTX_NS.r}" xmlns:p="${PPTX_NS.p}"`;
  const rels = (targets: [type: string, target: string][]) =>
    `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    targets
      .map(
        ([type, target], i) =>
          `<Relationship Id="rId${i + 1}" Type="${PPTX_NS.r}/${type}" Target="${target}"/>`,
      )
      .join('') +
    '</Relationships>';
  const slide = (line: string) =>
    `${XML_HEAD}<p:sld ${ns}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/>` +
    '</p:nvGrpSpPr><p:grpSpPr/><p:sp><p:nvSpPr><p:cNvPr id="2" name="text"/><p:cNvSpPr txBox="1"/><p:nvPr/>' +
    '</p:nvSpPr><p:spPr><a:xfrm><a:off x="720000" y="720000"/><a:ext cx="7200000" cy="1080000"/></a:xfrm>' +
    '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r>' +
    `<a:rPr lang="en-US" sz="3600"/><a:t>${line}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`;
  const type = (part: string) => `application/vnd.openxmlformats-officedocument.presentationml.${part}+xml`;
  const types =
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    `<Override PartName="/ppt/presentation.xml" ContentType="${type('presentation.main')}"/>` +
    lines
      .map((_, i) => `<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="${type('slide')}"/>`)
      .join('') +
    '</Types>';
  const presentation =
    `${XML_HEAD}<p:presentation ${ns}><p:sldIdLst>` +
    lines.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('') +
    '</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>';
  const entries = [
    { name: '[Content_Types].xml', data: types },
    { name: '_rels/.rels', data: rels([['officeDocument', 'ppt/presentation.xml']]) },
    { name: 'ppt/presentation.xml', data: presentation },
    {
      name: 'ppt/_rels/presentation.xml.rels',
      data: rels(lines.map((_, i) => ['slide', `slides/slide${i + 1}.xml`])),
    },
    ...lines.map((line, i) => ({ name: `ppt/slides/slide${i + 1}.xml`, data: slide(line) })),
  ];
  return makeZip(entries.map((entry) => ({ name: entry.name, data: Buffer.from(entry.data) })));
}
