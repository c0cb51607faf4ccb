import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import {
  corruptImage,
  emptyImage,
  imageQueueFull,
  imageTooLarge,
  unsupportedImage,
} from '../../media/image-error.js';
import { imageRefusal, throwAsHttpError } from './image-refusals.js';

const answer = (err: AppError) => ({
  status: err.statusCode,
  code: err.code,
  message: err.message,
  headers: err.headers,
});

describe('image refusals over HTTP', () => {
  it('answers an empty or unsupported file with 415 naming the accepted types', () => {
    expect(answer(imageRefusal(emptyImage()))).toEqual({
      status: 415,
      code: 'unsupported_media_type',
      message: 'The file is empty. Upload a JPEG, PNG, WebP, GIF, TIFF, AVIF, HEIC or HEIF image.',
      headers: {},
    });
    expect(answer(imageRefusal(unsupportedImage()))).toEqual({
      status: 415,
      code: 'unsupported_media_type',
      message:
        'This type of file is not supported. Upload a JPEG, PNG, WebP, GIF, TIFF, AVIF, HEIC or HEIF image.',
      headers: {},
    });
  });

  it('answers too many pixels with 413 and both sizes in megapixels', () => {
    expect(answer(imageRefusal(imageTooLarge(900_000_000, 120_000_000)))).toEqual({
      status: 413,
      code: 'image_too_large',
      message: 'The image is too large (900 megapixels; limit 120).',
      headers: {},
    });
    expect(imageRefusal(imageTooLarge(3_000_000, 2_000_000)).message).toBe(
      'The image is too large (3 megapixels; limit 2).',
    );
    expect(imageRefusal(imageTooLarge(12_345_678, 8_250_000)).message).toBe(
      'The image is too large (12 megapixels; limit 8.3).',
    );
  });

  it('answers an undecodable file with 422, keeping the decoder’s error as the cause', () => {
    const decoderError = new Error('VipsJpeg: premature end of input file');
    const refusal = imageRefusal(corruptImage(decoderError));
    expect(answer(refusal)).toEqual({
      status: 422,
      code: 'unreadable_image',
      message: 'The file could not be read as an image. It may be damaged or incomplete.',
      headers: {},
    });
    expect((refusal.cause as Error).cause).toBe(decoderError);
  });

  it('answers a full queue with 503 and Retry-After', () => {
    expect(answer(imageRefusal(imageQueueFull()))).toEqual({
      status: 503,
      code: 'busy',
      message: 'The server is busy processing other photos. Try again in a moment.',
      headers: { 'retry-after': '5' },
    });
  });

  it('passes other errors through unchanged', () => {
    const disk = Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
    expect(() => throwAsHttpError(disk)).toThrow(disk);
    expect(() => throwAsHttpError(emptyImage())).toThrow(AppError);
  });
});
