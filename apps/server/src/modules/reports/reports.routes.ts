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
import { negotiate } from '@fastify/accept-negotiator';
import { createHash } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { currentUser } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import { MEDIA_CSP } from '../../http/security-headers.js';
import * as links from './reports.links.js';
import * as reports from './reports.service.js';

// ---- a public link's refusal, as a page ----------------------------------------------------

/** The page's only style, allowed by its hash (the page's CSP lets nothing else in). */
const PAGE_STYLE =
  'body{margin:0;padding:0 1rem;font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#f6f7f9}' +
  'main{max-width:32rem;margin:12vh auto;padding:1.5rem;background:#fff;border-radius:8px;' +
  'box-shadow:0 1px 3px rgba(0,0,0,.15)}h1{font-size:1.25rem;margin:0 0 .75rem}p{margin:.5rem 0}';
const PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
const ASK_FOR_NEW = 'Ask the person who sent you the link for a new one.';
/** Refusals that mean the link itself will not work again: the page says to ask for a new one. */
const DEAD_LINK = new Set([
  'validation_failed',
  'report_link_not_found',
  'report_link_revoked',
  'report_link_expired',
  'report_link_maker_deactivated',
]);

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * The page a browser shows for a public link that does not work: self-contained (no script, no
 * other request), saying why (`message`, escaped) and, when `askForNew`, what to do.
 */
export function sharedLinkErrorPage(message: string, askForNew: boolean): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    '<title>Sitelog report link</title>',
    `<style>${PAGE_STYLE}</style>`,
    '</head>',
    '<body>',
    '<main>',
    '<h1>Sitelog report link</h1>',
    `<p>${escapeHtml(message)}</p>`,
    ...(askForNew ? [`<p>${escapeHtml(ASK_FOR_NEW)}</p>`] : []),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * Whether the request's `Accept` prefers a page to JSON: a browser's navigation (`text/html` at
 * the top, JSON only through a lower-rated any-type wildcard). The wildcard alone, no header, or
 * JSON as high as HTML is JSON, as API clients expect. Types are matched whole, q-values honoured.
 */
function prefersHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  if (!accept) return false;
  const wanted = negotiate(accept.toLowerCase(), [
    'application/json',
    '*/*',
    'application/*',
    'text/html',
    'application/xhtml+xml',
    'text/*',
  ]);
  return wanted === 'text/html' || wanted === 'application/xhtml+xml' || wanted === 'text/*';
}

/**
 * A shared link's refusals (unknown, malformed, revoked, expired, its maker deactivated, too many
 * guesses, no PDF, storage down): a page with the same status for a browser, the app's JSON error
 * for anyone else (the app's handler, by rethrowing).
 */
function sharedLinkErrorHandler(
  error: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  void reply.header('vary', 'accept');
  if (!prefersHtml(request)) throw error;
  let status: number;
  let code: string;
  let message: string;
  if (error instanceof AppError) {
    ({ statusCode: status, code, message } = error);
    void reply.headers(error.headers);
  } else if (hasZodFastifySchemaValidationErrors(error)) {
    status = 400;
    code = 'validation_failed';
    message = error.validation[0]?.message ?? 'The report link is incomplete.';
  } else throw error;
  void reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('x-robots-tag', 'noindex, nofollow')
    .header('content-security-policy', PAGE_CSP)
    .send(sharedLinkErrorPage(message, DEAD_LINK.has(code)));
}

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
  // answer is the PDF's bytes, streamed from storage (not a contract type: no typed reply). A
  // refusal opened in a browser is a small page, not JSON (`sharedLinkErrorHandler`).
  app.get(
    '/api/report/shared/:token',
    {
      config: { access: 'public', allowCrossSite: true },
      errorHandler: sharedLinkErrorHandler,
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
