import {
  acceptInvitationRequestSchema,
  errorResponseSchema,
  idParamsSchema,
  invitationLinkSchema,
  invitationSchema,
  invitationTokenParamsSchema,
  inviteRequestSchema,
  loginResponseSchema,
} from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import * as invitations from './invitations.service.js';
import type { UsersDeps } from './users.service.js';

/** Invitations: admins make links; the two public calls are the invited member's page. */
export function invitationRoutes(app: FastifyInstance, deps: UsersDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { access: 'admin' as const };
  const publicAccess = { access: 'public' as const };
  const link = { response: { 200: invitationLinkSchema, ...errorResponses } };
  // 410: the link was used, expired, replaced or its account deactivated.
  const linkErrors = { ...errorResponses, 410: errorResponseSchema };

  r.post(
    '/api/user/invite',
    { config: admin, schema: { body: inviteRequestSchema, ...link } },
    async (req) => invitations.inviteUser(deps, req.body.user, currentUser(req)),
  );
  r.post(
    '/api/user/:id/invite',
    { config: admin, schema: { params: idParamsSchema, ...link } },
    async (req) => invitations.reinviteUser(deps, req.params.id, currentUser(req)),
  );
  r.get(
    '/api/invitation/:token',
    {
      config: publicAccess,
      schema: {
        params: invitationTokenParamsSchema,
        response: { 200: invitationSchema, ...linkErrors },
      },
    },
    async (req) => invitations.getInvitation(deps, req.params.token, req.ip),
  );
  r.post(
    '/api/invitation/:token/accept',
    {
      config: publicAccess,
      schema: {
        params: invitationTokenParamsSchema,
        body: acceptInvitationRequestSchema,
        response: { 200: loginResponseSchema, ...linkErrors },
      },
    },
    async (req) =>
      invitations.acceptInvitation(deps, req.params.token, {
        password: req.body.password,
        ip: req.ip,
      }),
  );
}
