import { randomBytes } from 'node:crypto';

/** One part of a hand-built multipart body. A `filename` makes it a file part. */
export type Part = { name: string; value: string | Buffer; filename?: string; contentType?: string };

/**
 * Builds a multipart/form-data body byte by byte, so tests control every header (a JSON part sent as a field,
 * as a field declared application/json, or as a Blob-like file part).
 */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----sea${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType !== undefined) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A JSON part as browsers send it: a Blob of type application/json. */
export function jsonPart(name: string, value: unknown): Part {
  return { name, value: JSON.stringify(value), filename: 'blob', contentType: 'application/json' };
}

/** An image file part named `imagefile`. */
export function imagePart(bytes: Buffer, filename = 'photo.jpg', contentType = 'image/jpeg'): Part {
  return { name: 'imagefile', value: bytes, filename, contentType };
}
