// The HTTP answer to each reason the image pipeline refuses an upload for.
import { AppError } from '../../errors.js';
import { ImageError } from '../../media/image-processor.js';
import { ACCEPTED_IMAGE_LABELS } from '../../media/media-types.js';

/** Seconds a client is asked to wait when the decode queue is full. */
const BUSY_RETRY_AFTER_SECONDS = 5;

const megapixels = (pixels: number) => {
  const mp = pixels / 1_000_000;
  return mp >= 10 ? String(Math.round(mp)) : String(Math.round(mp * 10) / 10);
};

/**
 * The refusal as the client sees it: 415 empty or unsupported type, 413 too many pixels, 422
 * undecodable, 503 with `Retry-After` when the server is busy.
 */
export function imageRefusal(err: ImageError): AppError {
  let refusal: AppError;
  switch (err.reason) {
    case 'empty':
      refusal = new AppError(
        415,
        'unsupported_media_type',
        `The file is empty. Upload a ${ACCEPTED_IMAGE_LABELS} image.`,
      );
      break;
    case 'unsupported':
      refusal = new AppError(
        415,
        'unsupported_media_type',
        `This type of file is not supported. Upload a ${ACCEPTED_IMAGE_LABELS} image.`,
      );
      break;
    case 'too_large': {
      const { actual, limit } = err.pixels ?? { actual: 0, limit: 0 };
      refusal = new AppError(
        413,
        'image_too_large',
        `The image is too large (${megapixels(actual)} megapixels; limit ${megapixels(limit)}).`,
      );
      break;
    }
    case 'corrupt':
      refusal = new AppError(
        422,
        'unreadable_image',
        'The file could not be read as an image. It may be damaged or incomplete.',
      );
      break;
    case 'busy':
      refusal = new AppError(
        503,
        'busy',
        'The server is busy processing other photos. Try again in a moment.',
        { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) },
      );
      break;
  }
  refusal.cause = err;
  return refusal;
}

/** Rethrows an image refusal as its HTTP error, anything else as it is. */
export function throwAsHttpError(err: unknown): never {
  throw err instanceof ImageError ? imageRefusal(err) : err;
}
