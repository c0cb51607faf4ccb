import {
  errorResponseSchema,
  feedQuerySchema,
  idParamsSchema,
  latestCountParamsSchema,
  okResponseSchema,
  photoLocationListSchema,
  tagSuggestionsQuerySchema,
  tagSuggestionsSchema,
  updateUploadRequestSchema,
  uploadListSchema,
  uploadSchema,
} from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/auth.js';
import { LARGE_RESPONSE } from '../../http/compression.js';
import { UPLOAD_IDLE_TIMEOUT_MS, watchBodyIdle } from '../../http/request-body.js';
import { errorResponses } from '../../http/schemas.js';
import * as uploads from './uploads.service.js';

export function uploadRoutes(
  app: FastifyInstance,
  deps: uploads.UploadsDeps & { uploadIdleTimeoutMs?: number },
): void {
  const idleMs = deps.uploadIdleTimeoutMs ?? UPLOAD_IDLE_TIMEOUT_MS;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const one = { response: { 200: uploadSchema, ...errorResponses } };
  const many = { response: { 200: uploadListSchema, ...errorResponses } };

  r.post(
    '/api/upload/autoupload',
    {
      schema: {
        consumes: ['multipart/form-data'],
        response: {
          200: uploadSchema,
          ...errorResponses,
          // 408: the body stalled; 415: the form came with a Content-Encoding; 503: busy or the
          // bucket is unreachable; 507: the disk is full.
          408: errorResponseSchema,
          415: errorResponseSchema,
          422: errorResponseSchema,
          503: errorResponseSchema,
          507: errorResponseSchema,
        },
      },
    },
    async (req) => {
      const idle = watchBodyIdle(req.raw, idleMs);
      try {
        return await uploads.createUploadFromForm(deps, req.parts(), currentUser(req), idle.signal);
      } finally {
        idle.stop();
      }
    },
  );
  r.get('/api/upload/full/:id', { schema: { params: idParamsSchema, ...one } }, async (req) =>
    uploads.getUpload(deps, req.params.id, currentUser(req)),
  );
  r.get(
    '/api/upload/latest/:count',
    { compress: LARGE_RESPONSE, schema: { params: latestCountParamsSchema, ...many } },
    async (req) => uploads.listLatestUploads(deps, req.params.count, currentUser(req)),
  );
  const feed = { params: idParamsSchema, querystring: feedQuerySchema, ...many };
  r.get('/api/upload/project/:id/latest', { compress: LARGE_RESPONSE, schema: feed }, async (req) =>
    uploads.listProjectUploads(deps, req.params.id, currentUser(req), req.query),
  );
  r.get(
    '/api/upload/project/:id/locations',
    {
      compress: LARGE_RESPONSE,
      schema: {
        params: idParamsSchema,
        response: { 200: photoLocationListSchema, ...errorResponses },
      },
    },
    async (req) => uploads.listProjectPhotoLocations(deps, req.params.id, currentUser(req)),
  );
  r.get(
    '/api/upload/tags',
    {
      schema: {
        querystring: tagSuggestionsQuerySchema,
        response: { 200: tagSuggestionsSchema, ...errorResponses },
      },
    },
    async (req) => uploads.listTagSuggestions(deps, req.query, currentUser(req)),
  );
  r.get('/api/upload/user/:id/latest', { compress: LARGE_RESPONSE, schema: feed }, async (req) =>
    uploads.listMemberUploads(deps, req.params.id, currentUser(req), req.query),
  );
  r.patch(
    '/api/upload/update/no-image/:id',
    { schema: { params: idParamsSchema, body: updateUploadRequestSchema, ...one } },
    async (req) => uploads.updateUpload(deps, req.params.id, req.body.upload, currentUser(req)),
  );
  r.delete(
    '/api/upload/delete/:id',
    {
      schema: { params: idParamsSchema, response: { 200: okResponseSchema, ...errorResponses } },
    },
    async (req) => {
      await uploads.deleteUpload(deps, req.params.id, currentUser(req));
      return { ok: true as const };
    },
  );
}
