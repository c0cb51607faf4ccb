import {
  idParamsSchema,
  notificationPageSchema,
  notificationSettingsPatchSchema,
  notificationSettingsSchema,
  notificationsQuerySchema,
  projectMuteSchema,
  unreadCountSchema,
} from '@sitelog/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { currentUser } from '../../http/auth.js';
import { errorResponses } from '../../http/schemas.js';
import { matchesEtag } from '../../media/media-files.js';
import * as notifications from './notifications.service.js';

export function notificationRoutes(
  app: FastifyInstance,
  deps: notifications.NotificationsDeps,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const count = { response: { 200: unreadCountSchema, ...errorResponses } };
  const settings = { response: { 200: notificationSettingsSchema, ...errorResponses } };
  const mute = { params: idParamsSchema, response: { 200: projectMuteSchema, ...errorResponses } };

  r.get(
    '/api/notifications',
    {
      schema: {
        querystring: notificationsQuerySchema,
        response: { 200: notificationPageSchema, ...errorResponses },
      },
    },
    async (req) => notifications.listNotifications(deps, req.query, currentUser(req)),
  );
  // Polled every few seconds by every open tab. The body is only the count, so the count is the
  // ETag: a poll that sends it back gets 304 and no body while it holds. Every instance answers
  // alike (it reads the table), so polls may land on any instance behind a load balancer.
  r.get('/api/notifications/unread', { schema: count }, async (req, reply) => {
    const answer = await notifications.unreadCount(deps, currentUser(req));
    const etag = `"unread-${answer.count}"`;
    void reply.header('etag', etag).header('cache-control', 'private, no-cache');
    // No body, so no schema: the plain reply sends the 304 as it is.
    if (matchesEtag(req.headers['if-none-match'], etag))
      return (reply as FastifyReply).code(304).send();
    return answer;
  });
  r.post('/api/notifications/read-all', { schema: count }, async (req) =>
    notifications.markAllRead(deps, currentUser(req)),
  );
  r.post(
    '/api/notifications/:id/read',
    { schema: { params: idParamsSchema, ...count } },
    async (req) => notifications.markRead(deps, req.params.id, currentUser(req)),
  );
  r.get('/api/notifications/settings', { schema: settings }, async (req) =>
    notifications.getSettings(deps, currentUser(req)),
  );
  r.patch(
    '/api/notifications/settings',
    { schema: { body: notificationSettingsPatchSchema, ...settings } },
    async (req) => notifications.updateSettings(deps, req.body, currentUser(req)),
  );
  r.get('/api/project/:id/mute', { schema: mute }, async (req) =>
    notifications.getMute(deps, req.params.id, currentUser(req)),
  );
  r.post('/api/project/:id/mute', { schema: mute }, async (req) =>
    notifications.setMute(deps, req.params.id, true, currentUser(req)),
  );
  r.post('/api/project/:id/unmute', { schema: mute }, async (req) =>
    notifications.setMute(deps, req.params.id, false, currentUser(req)),
  );
}
