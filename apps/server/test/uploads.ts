// Test-only helpers shared by the uploads test files: multipart bodies, uploads, storage checks.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import type { Upload } from '@sitelog/shared';
import { expect } from 'vitest';
import { api, type TestContext } from './helpers.js';
import { jpegWithExif } from './images.js';

export interface FormPart {
  name: string;
  /** Set for a file part (may be ""). */
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

/** A multipart/form-data body built by hand, so tests control every byte and the part order. */
export function multipartBody(
  parts: FormPart[],
  options: { close?: boolean } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----sitelog${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.contentType) head += `Content-Type: ${part.contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  if (options.close !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export const filePart = (
  data: Buffer | string,
  filename = 'photo.jpg',
  contentType = 'image/jpeg',
): FormPart => ({
  name: 'file',
  filename,
  contentType,
  data,
});

export const dtoPart = (dto: unknown): FormPart => ({
  name: 'createUploadDto',
  data: typeof dto === 'string' ? dto : JSON.stringify(dto),
});

/** POST /api/upload/autoupload with the given parts, in the given order. */
export function postUpload(
  ctx: Pick<TestContext, 'app'>,
  token: string | undefined,
  parts: FormPart[],
  options: { close?: boolean } = {},
): Promise<LightMyRequestResponse> {
  const body = multipartBody(parts, options);
  return api(ctx, {
    method: 'POST',
    url: '/api/upload/autoupload',
    token,
    headers: body.headers,
    payload: body.payload,
  });
}

/** Uploads a photo (the file part first, as the web app sends it) and returns the upload. */
export async function uploadPhoto(
  ctx: Pick<TestContext, 'app'>,
  token: string,
  projectId: number,
  options: { file?: Buffer; filename?: string; name?: string; description?: string } = {},
): Promise<Upload> {
  const file = options.file ?? (await jpegWithExif());
  const res = await postUpload(ctx, token, [
    filePart(file, options.filename ?? 'photo.jpg'),
    dtoPart({ name: options.name ?? '', description: options.description ?? '', projectId }),
  ]);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Upload>();
}

/** Every stored upload object's key, sorted. */
export async function storedKeys(ctx: Pick<TestContext, 'storage'>): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of ctx.storage.list('uploads/')) keys.push(object.key);
  return keys.sort();
}

/** Files left in the upload temp folder. */
export function tempFiles(ctx: Pick<TestContext, 'config'>): string[] {
  const dir = ctx.config.uploads.tempDir;
  return existsSync(dir) ? readdirSync(dir) : [];
}

export async function uploadRowCount(ctx: Pick<TestContext, 'db'>): Promise<number> {
  const row = await ctx.db
    .selectFrom('uploads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The query of a signed `/media/…` URL, as an object. */
export function mediaQuery(link: string): Record<string, string> {
  return Object.fromEntries(new URL(link, 'http://x').searchParams);
}
