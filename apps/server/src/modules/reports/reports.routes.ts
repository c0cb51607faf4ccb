import {
  createdReportLinkSchema,
  createReportLinkBodySchema,
  createReportRequestSchema,
  errorResponseSchema,
  idParamsSchema,
  reportDetailSchema,
  reportLinkListSchema,
  reportLinkTokenParamsSchema,
  reportPageSchema,
  reportsQuerySchema,
} from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import { MEDIA_CSP } from '../../http/security-headers.js';
import * as links from './reports.links.js';
import * as reports from './reports.service.js';

/** Photo reports: the list, one report, its PDF's queue, its public links. */
export function reportRoutes(app: FastifyInstance, deps: reports.ReportQueueDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const detail = { 202: reportDetailSchema, ...errorResponses, 503: errorResponseSchema };
  const deleted = { 204: z.null().describe('Deleted: no body.'), ...errorResponses };

  r.post(
    '/api/report',
    { schema: { body: createReportRequestSchema, response: detail } },
    async (req, reply) => {
      const report = await reports.createReport(deps, req.body, currentUser(req));
      return reply.code(202).send(report);
    },
  );
  r.get(
    '/api/report/latest',
    {
      schema: {
        querystring: reportsQuerySchema,
        response: { 200: reportPageSchema, ...errorResponses },
      },
    },
    async (req) => reports.listLatestReports(deps, req.query, currentUser(req)),
  );
  r.get(
    '/api/report/:id',
    {
      schema: { params: idParamsSchema, response: { 200: reportDetailSchema, ...errorResponses } },
    },
    async (req) => reports.getReport(deps, req.params.id, currentUser(req)),
  );
  r.post(
    '/api/report/:id/regenerate',
    { schema: { params: idParamsSchema, response: detail } },
    async (req, reply) => {
      const report = await reports.regenerateReport(deps, req.params.id, currentUser(req));
      return reply.code(202).send(report);
    },
  );
  r.delete(
    '/api/report/:id',
    { schema: { params: idParamsSchema, response: deleted } },
    async (req, reply) => {
      await reports.deleteReport(deps, req.params.id, currentUser(req));
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/api/report/:id/links',
    {
      schema: {
        params: idParamsSchema,
        response: { 200: reportLinkListSchema, ...errorResponses },
      },
    },
    async (req) => links.listReportLinks(deps, req.params.id, currentUser(req)),
  );
  r.post(
    '/api/report/:id/links',
    {
      // The body is optional (none: 30 days). A client that says JSON but sends no body (no
      // `Content-Length`, or 0, and no `Transfer-Encoding`) is read as sending none, not refused
      // as an empty JSON body.
      onRequest: (req, _reply, done) => {
        const length = req.headers['content-length'];
        if (
          req.headers['transfer-encoding'] === undefined &&
          (length === undefined || length === '0')
        )
          delete req.headers['content-type'];
        done();
      },
      schema: {
        params: idParamsSchema,
        body: createReportLinkBodySchema,
        response: { 201: createdReportLinkSchema, ...errorResponses },
      },
    },
    async (req, reply) => {
      const link = await links.createReportLink(deps, req.params.id, req.body, currentUser(req));
      return reply.code(201).send(link);
    },
  );
  r.delete(
    '/api/report/link/:id',
    { schema: { params: idParamsSchema, response: deleted } },
    async (req, reply) => {
      await links.revokeReportLink(deps, req.params.id, currentUser(req));
      return reply.code(204).send(null);
    },
  );

  // Public: the link's token is the credential. Opened from a mail or a chat on another site,
  // so cross-site navigations are let through (app.ts); never cached, never run as a page. Its
  // answer is the PDF's bytes, streamed from storage (not a contract type: no typed reply).
  app.get(
    '/api/report/shared/:token',
    {
      config: { access: 'public', allowCrossSite: true },
      schema: {
        params: reportLinkTokenParamsSchema,
        response: { ...errorResponses, 410: errorResponseSchema, 503: errorResponseSchema },
      },
    },
    async (req, reply) => {
      const { token } = req.params as z.output<typeof reportLinkTokenParamsSchema>;
      const pdf = await links.openSharedReport(deps, token, req.ip);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', pdf.size)
        .header('content-disposition', pdf.disposition)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('x-robots-tag', 'noindex, nofollow')
        .header('content-security-policy', MEDIA_CSP)
        .send(pdf.body);
    },
  );
}
