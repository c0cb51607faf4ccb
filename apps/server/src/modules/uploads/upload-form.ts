// Reads the autoupload multipart form: a `file` part and a JSON text part `createUploadDto`,
// in either order, streaming the file to a temp file and never holding it in memory.
import type { Multipart } from '@fastify/multipart';
import { createUploadDtoSchema } from '@sitelog/shared';
import type { z } from 'zod';
import { AppError, badRequest } from '../../errors.js';
import { StorageError } from '../../media/storage/index.js';
import { FileTooLargeError, removeFile, saveStreamToTempFile } from '../../media/temp-files.js';
import { storageRefusal } from './storage-refusals.js';

const FILE_PART = 'file';
const DTO_PART = 'createUploadDto';

export type UploadDto = z.output<typeof createUploadDtoSchema>;

export interface UploadForm {
  dto: UploadDto;
  /**
   * The streamed file; the caller removes it (`removeFile`) when done. The client's file name is
   * not kept: nothing is named after it.
   */
  file: { path: string; bytes: number };
}

export interface ReadUploadFormOptions {
  tempDir: string;
  maxBytes: number;
  /**
   * Runs as soon as the JSON part is parsed (e.g. the project check, the idempotency key's
   * lookup), before more is read.
   */
  onDto: (dto: UploadDto) => Promise<void>;
  /**
   * Aborted when the body stops arriving: reading stops at once, the partial file is removed and
   * the form fails with the signal's reason.
   */
  stalled?: AbortSignal;
}

const FORM_HELP = `Send a multipart/form-data body with a "${FILE_PART}" part (the photo) and a "${DTO_PART}" part ({"name","description","projectId"} as JSON).`;

const formatMegabytes = (bytes: number) => {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
};

/** 413 for a file over `maxBytes`, with the limit in the message. */
export function fileTooLarge(maxBytes: number): AppError {
  return new AppError(
    413,
    'file_too_large',
    `The file is too large (limit ${formatMegabytes(maxBytes)}).`,
  );
}

const notMultipart = () => new AppError(400, 'multipart_required', FORM_HELP);
const missingFile = () =>
  new AppError(
    400,
    'file_missing',
    `Choose a photo to upload: the form has no "${FILE_PART}" part.`,
  );
const missingDto = () =>
  new AppError(400, 'upload_details_missing', `The form has no "${DTO_PART}" part. ${FORM_HELP}`);
const tooManyFiles = () =>
  new AppError(
    400,
    'too_many_files',
    'Send one photo per upload: the form has more than one file.',
  );
const malformedForm = () =>
  new AppError(
    400,
    'malformed_multipart',
    'The upload form could not be read: it is incomplete or malformed. Try again.',
  );
const invalidDtoJson = () =>
  new AppError(400, 'validation_failed', `${DTO_PART} is not valid JSON.`);

const errorCode = (err: unknown) =>
  typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : '';

/** Turns what the multipart parser throws into a clear 4xx. */
function formError(err: unknown, maxBytes: number): Error {
  if (err instanceof AppError) return err;
  switch (errorCode(err)) {
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return notMultipart();
    case 'FST_FILES_LIMIT':
      return tooManyFiles();
    case 'FST_REQ_FILE_TOO_LARGE':
      return fileTooLarge(maxBytes);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError(400, 'too_many_fields', 'The upload form has too many fields.');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return invalidDtoJson();
    case 'FST_PROTO_VIOLATION':
      return badRequest('The upload form has a field name that is not allowed.');
  }
  // Busboy's own errors ("Unexpected end of form", "Malformed part header", no boundary…).
  return malformedForm();
}

/** A failure while streaming the file: the client's fault unless the disk said otherwise. */
function streamError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  if (err instanceof FileTooLargeError) return fileTooLarge(err.maxBytes);
  if (err instanceof StorageError) return storageRefusal(err, 'save');
  const isSystemError = typeof err === 'object' && err !== null && 'syscall' in err;
  return isSystemError ? err : malformedForm();
}

/** Parses and validates the JSON text part; every problem is a 400 naming the field. */
function parseUploadDto(value: unknown): UploadDto {
  let json: unknown = value;
  if (typeof value === 'string') {
    try {
      json = JSON.parse(value);
    } catch {
      throw invalidDtoJson();
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new AppError(
      400,
      'validation_failed',
      `${DTO_PART} must be a JSON object such as {"name":"","description":"","projectId":1}.`,
    );
  }
  const parsed = createUploadDtoSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  const message =
    field === 'projectId'
      ? `${DTO_PART}.projectId must be the id of the project to upload to.`
      : (issue?.message ?? `${DTO_PART} is not valid.`);
  throw new AppError(400, 'validation_failed', message);
}

/**
 * Reads the whole form. The file is streamed to `tempDir` with the byte limit as it arrives;
 * the JSON part is validated and handed to `onDto` as soon as it arrives (before a file that
 * follows it is read, or right after a file that came first). On any failure nothing is left
 * behind: the temp file is removed and the error is a 4xx with a clear message.
 */
export async function readUploadForm(
  parts: AsyncIterator<Multipart>,
  options: ReadUploadFormOptions,
): Promise<UploadForm> {
  let dto: UploadDto | null = null;
  let file: UploadForm['file'] | null = null;
  const { stalled } = options;
  // The parser waits for bytes that may never come: race each wait against the stall.
  const stall = new Promise<never>((_, reject) => {
    if (stalled?.aborted) reject(stalled.reason as Error);
    stalled?.addEventListener('abort', () => reject(stalled.reason as Error), { once: true });
  });
  stall.catch(() => {});
  const failure = (err: unknown, fallback: (e: unknown) => unknown) =>
    stalled?.aborted ? (stalled.reason as Error) : fallback(err);
  try {
    for (;;) {
      let result: IteratorResult<Multipart>;
      try {
        result = await Promise.race([parts.next(), stall]);
      } catch (err) {
        throw failure(err, (e) => formError(e, options.maxBytes));
      }
      if (result.done) break;
      const part = result.value;

      if (part.type === 'file') {
        if (part.fieldname !== FILE_PART || file) {
          part.file.resume();
          throw file
            ? tooManyFiles()
            : badRequest(`Send the photo in the multipart part named "${FILE_PART}".`);
        }
        let saved;
        // Closing the file stream makes the copy fail and remove its partial file.
        const closeFile = () => part.file.destroy();
        stalled?.addEventListener('abort', closeFile, { once: true });
        try {
          saved = await saveStreamToTempFile(part.file, {
            tempDir: options.tempDir,
            maxBytes: options.maxBytes,
          });
        } catch (err) {
          throw failure(err, streamError);
        } finally {
          stalled?.removeEventListener('abort', closeFile);
        }
        file = saved;
        // The parser stops a file at the limit and flags it instead of failing the stream.
        if (part.file.truncated) throw fileTooLarge(options.maxBytes);
      } else if (part.fieldname === DTO_PART) {
        if (dto) throw badRequest(`Send the "${DTO_PART}" part only once.`);
        if (part.valueTruncated) throw badRequest(`The "${DTO_PART}" part is too long.`);
        dto = parseUploadDto(part.value);
        await options.onDto(dto);
      }
      // Other text parts are ignored (the parser caps how many there may be).
    }
    if (!file) throw missingFile();
    if (!dto) throw missingDto();
    return { dto, file };
  } catch (err) {
    if (file) await removeFile(file.path);
    throw err;
  }
}
