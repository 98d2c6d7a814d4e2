import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import type { z } from 'zod';
import { IMAGE_PART, MAX_UPLOAD_BYTES } from '@sea/contract/uploads';
import { processImage } from './process-image.ts';
import type { ProcessedImage } from './process-image.ts';
import type { ImageKind } from '../storage/storage.ts';
import { HttpError } from '../errors.ts';
import { formBad, formTooLarge, imageTooLarge } from './upload-errors.ts';
import type { UploadOutcome } from './upload-metrics.ts';

/** Largest accepted JSON part. The forms' texts are at most a few thousand characters. */
export const MAX_JSON_PART_BYTES = 64 * 1024;

export type ImageFormOptions<S extends z.ZodType> = {
  /** Name of the multipart part that carries the JSON (`signupRequestDto`, `classroomCreateDto`...). */
  jsonPart: string;
  /** How an image in the `imagefile` part is re-encoded. */
  kind: ImageKind;
  /** Validates the JSON before any image work; its issues become a 400 with `invalid_fields` (Korean). */
  schema?: S;
};

export type ImageForm<T> = {
  json: T;
  /** The re-encoded image, absent when no (or an empty) `imagefile` part was sent. */
  image?: ProcessedImage;
};

// Limits handed to busboy per request: one JSON part and one image, a few stray parts at most.
const LIMITS = {
  fileSize: MAX_UPLOAD_BYTES,
  files: 3,
  fields: 8,
  parts: 10,
  fieldSize: MAX_JSON_PART_BYTES,
  headerPairs: 50,
} as const;

/**
 * Reads a multipart request made of one JSON part named `jsonPart` (sent as a plain field, a field with
 * `Content-Type: application/json`, or a file part such as a browser `Blob`) and an optional image part
 * `imagefile`. Throws typed errors: 400 for a missing, repeated or malformed JSON part, 413 for an image over
 * 5 MB or 40 megapixels, 415 for anything that is not really a JPEG or PNG. Nothing is stored here.
 */
export async function readImageForm<S extends z.ZodType = z.ZodUnknown>(
  request: FastifyRequest,
  options: ImageFormOptions<S>,
): Promise<ImageForm<z.output<S>>> {
  const started = performance.now();
  // A request counts as an upload once its image part began; an empty one is "no image" (a browser's file
  // input left empty), unless the part was cut off for its size.
  let image: { bytes: number } | null = null;
  const measure = (outcome: UploadOutcome): void => {
    if (image === null || (image.bytes === 0 && outcome !== 'too-large')) return;
    if (!request.server.hasDecorator('uploadMeter')) return;
    const seconds = (performance.now() - started) / 1000;
    request.server.uploadMeter.finished(options.kind, outcome, image.bytes, seconds);
  };
  try {
    const form = await readForm(request, options, (seen) => (image = seen));
    measure('accepted');
    return form;
  } catch (error) {
    measure(uploadOutcome(error));
    throw error;
  }
}

function uploadOutcome(error: unknown): UploadOutcome {
  if (!(error instanceof HttpError)) return 'invalid';
  if (error.status === 413) return 'too-large';
  if (error.status === 415) return 'unsupported';
  return 'invalid';
}

async function readForm<S extends z.ZodType>(
  request: FastifyRequest,
  options: ImageFormOptions<S>,
  imageSeen: (image: { bytes: number }) => void,
): Promise<ImageForm<z.output<S>>> {
  if (!request.isMultipart()) {
    throw formBad(
      `multipart/form-data 형식으로 보내 주세요. (${options.jsonPart} 파트 필요)`,
      `Send multipart/form-data with a ${options.jsonPart} part.`,
    );
  }
  let json: unknown;
  let jsonSeen = false;
  let imageBytes: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: LIMITS })) {
      if (part.fieldname === options.jsonPart) {
        if (jsonSeen) throw repeatedPart(options.jsonPart);
        jsonSeen = true;
        json = await readJsonPart(part, options.jsonPart);
      } else if (part.fieldname === IMAGE_PART && part.type === 'file') {
        if (imageBytes !== undefined) throw repeatedPart(IMAGE_PART);
        const seen = { bytes: 0 };
        imageSeen(seen);
        imageBytes = await part.toBuffer();
        seen.bytes = imageBytes.length;
      } else if (part.type === 'file') {
        // Unknown file parts are read to the end and dropped, so the rest of the form still arrives.
        part.file.resume();
      }
    }
  } catch (error) {
    throw multipartError(error);
  }
  if (!jsonSeen) {
    throw formBad(`${options.jsonPart} 파트가 없어요.`, `The ${options.jsonPart} part is missing.`);
  }
  const value = (options.schema === undefined ? json : validated(options.schema, json)) as z.output<S>;
  // Browsers send an empty file part when the file input was left empty: that is "no image".
  if (imageBytes === undefined || imageBytes.length === 0) return { json: value };
  return { json: value, image: await processImage(imageBytes, options.kind) };
}

/**
 * The parsed value; otherwise the ZodError is thrown, and the error handler answers it as it answers any JSON
 * body's (400 with `invalid_fields`, field → Korean message).
 */
function validated<S extends z.ZodType>(schema: S, json: unknown): z.output<S> {
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  throw result.error;
}

async function readJsonPart(part: Multipart, name: string): Promise<unknown> {
  if (part.type === 'field') {
    if (part.valueTruncated) throw jsonTooLarge(name);
    // A field declared `application/json` arrives parsed already (malformed ones raise an error instead).
    if (typeof part.value !== 'string') return part.value;
    return parseJson(part.value, name);
  }
  const bytes = await part.toBuffer();
  if (bytes.length > MAX_JSON_PART_BYTES) throw jsonTooLarge(name);
  return parseJson(bytes.toString('utf8'), name);
}

function parseJson(text: string, name: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw malformedJson(name);
  }
}

const malformedJson = (name: string) =>
  formBad(`${name} 파트의 JSON 형식이 올바르지 않아요.`, `The ${name} part is not valid JSON.`);
const jsonTooLarge = (name: string) =>
  formTooLarge(`${name} 파트가 너무 커요.`, `The ${name} part is too large.`);
const repeatedPart = (name: string) =>
  formBad(`${name} 파트는 하나만 보낼 수 있어요.`, `Send only one ${name} part.`);

/** Turns @fastify/multipart and busboy failures into the API's typed errors. */
function multipartError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return imageTooLarge();
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return formBad('JSON 형식이 올바르지 않아요.', 'A JSON part is not valid JSON.');
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return formBad('요청의 파트가 너무 많아요.', 'The form has too many parts.');
    default:
      // Everything else busboy raises (truncated body, bad boundary, prototype field names) is a malformed
      // request, not a server fault.
      return formBad('multipart 요청 형식이 올바르지 않아요.', 'The multipart request is malformed.');
  }
}
