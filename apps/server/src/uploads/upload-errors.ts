import { HttpError, payloadTooLarge, unsupportedMediaType } from '../errors.ts';

// The upload module's own error cases, all expressed as the shared typed errors.

export const imageTooLarge = payloadTooLarge;
export const imageUnsupported = unsupportedMediaType;

export function imageTooManyPixels(): HttpError {
  return new HttpError(
    413,
    '이미지 해상도가 너무 커요. 4천만 화소 이하로 올려 주세요.',
    'The image has more than 40 megapixels.',
  );
}

export function imageUnreadable(): HttpError {
  return new HttpError(
    415,
    '이미지를 읽을 수 없어요. 다른 JPG 또는 PNG 파일을 올려 주세요.',
    'The image could not be decoded; send another JPEG or PNG file.',
  );
}

export function formBad(kor: string, eng: string): HttpError {
  return new HttpError(400, kor, eng);
}

export function formTooLarge(kor: string, eng: string): HttpError {
  return new HttpError(413, kor, eng);
}
