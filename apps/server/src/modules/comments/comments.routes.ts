import {
  commentPageSchema,
  commentRequestSchema,
  commentSchema,
  commentsQuerySchema,
  idParamsSchema,
  mentionCandidatesSchema,
  mentionQuerySchema,
} from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import * as comments from './comments.service.js';

export function commentRoutes(app: FastifyInstance, deps: comments.CommentsDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/upload/:id/comments',
    {
      schema: {
        params: idParamsSchema,
        querystring: commentsQuerySchema,
        response: { 200: commentPageSchema, ...errorResponses },
      },
    },
    async (req) => comments.listUploadComments(deps, req.params.id, req.query, currentUser(req)),
  );
  r.post(
    '/api/upload/:id/comments',
    {
      schema: {
        params: idParamsSchema,
        body: commentRequestSchema,
        response: { 201: commentSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      const comment = await comments.addComment(deps, req.params.id, req.body, currentUser(req));
      return reply.code(201).send(comment);
    },
  );
  r.patch(
    '/api/comment/:id',
    {
      schema: {
        params: idParamsSchema,
        body: commentRequestSchema,
        response: { 200: commentSchema, ...errorResponses },
      },
    },
    async (req) => comments.updateComment(deps, req.params.id, req.body, currentUser(req)),
  );
  r.delete(
    '/api/comment/:id',
    {
      schema: {
        params: idParamsSchema,
        response: { 204: z.null().describe('Deleted: no body.'), ...errorResponses },
      },
    },
    async (req, reply) => {
      await comments.deleteComment(deps, req.params.id, currentUser(req));
      return reply.code(204).send(null);
    },
  );
  r.get(
    '/api/user/mentionable',
    {
      schema: {
        querystring: mentionQuerySchema,
        response: { 200: mentionCandidatesSchema, ...errorResponses },
      },
    },
    async (req) => comments.listMentionable(deps, req.query.q, currentUser(req)),
  );
}
