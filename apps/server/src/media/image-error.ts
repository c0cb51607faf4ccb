/**
 * Why the pipeline refused an image. The media layer knows nothing of HTTP: the upload route
 * turns each reason into its status and message.
 * - `empty`: the file has no bytes;
 * - `unsupported`: the bytes are not one of the accepted image types;
 * - `too_large`: more pixels than the limit (checked from the header, before decoding);
 * - `corrupt`: damaged, truncated or otherwise undecodable;
 * - `busy`: too many images are already waiting to be decoded.
 */
export type ImageRefusalReason = 'empty' | 'unsupported' | 'too_large' | 'corrupt' | 'busy';

export class ImageError extends Error {
  constructor(
    readonly reason: ImageRefusalReason,
    message: string,
    /** For `too_large`: the image's and the limit's pixel counts. */
    readonly pixels?: { actual: number; limit: number },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ImageError';
  }
}

export const emptyImage = () => new ImageError('empty', 'the file is empty');

export const unsupportedImage = () =>
  new ImageError('unsupported', 'the bytes are not an accepted image type');

export const imageTooLarge = (actual: number, limit: number) =>
  new ImageError('too_large', `the image has ${actual} pixels; the limit is ${limit}`, {
    actual,
    limit,
  });

export const corruptImage = (cause?: unknown) =>
  new ImageError(
    'corrupt',
    'the file could not be decoded as an image',
    undefined,
    cause === undefined ? undefined : { cause },
  );

export const imageQueueFull = () =>
  new ImageError('busy', 'too many images are waiting to be decoded');
