import {
  createProjectRequestSchema,
  idParamsSchema,
  projectListSchema,
  projectLocationListSchema,
  projectRowsSchema,
  projectSchema,
  updateProjectRequestSchema,
} from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../http/auth.js';
import { LARGE_RESPONSE } from '../../http/compression.js';
import { sendJsonText } from '../../http/serializer.js';
import { errorResponses } from '../../http/schemas.js';
import * as projects from './projects.service.js';

const relevantParams = z.object({
  count: z.coerce
    .number({ error: 'count must be a number.' })
    .int({ error: 'count must be a whole number.' })
    .min(1, { error: 'count must be at least 1.' })
    .max(50, { error: 'count must be at most 50.' }),
});

export function projectRoutes(
  app: FastifyInstance,
  deps: projects.ProjectsDeps & { config: Pick<Config, 'env'> },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const one = { response: { 200: projectSchema, ...errorResponses } };
  const many = { response: { 200: projectListSchema, ...errorResponses } };

  r.get(
    '/api/project/all/list',
    {
      compress: LARGE_RESPONSE,
      schema: { response: { 200: projectRowsSchema, ...errorResponses } },
    },
    async (_req, reply) =>
      sendJsonText(
        reply,
        await projects.listProjectRowsJson(deps),
        projectRowsSchema,
        deps.config.env === 'test',
      ),
  );
  r.get(
    '/api/project/locations',
    {
      compress: LARGE_RESPONSE,
      schema: { response: { 200: projectLocationListSchema, ...errorResponses } },
    },
    async () => projects.listProjectLocations(deps),
  );
  r.get('/api/project/favnfol', { compress: LARGE_RESPONSE, schema: many }, async (req) =>
    projects.listBookmarkedOrFollowed(deps, currentUser(req)),
  );
  r.get('/api/project/user', { compress: LARGE_RESPONSE, schema: many }, async (req) =>
    projects.listMyProjects(deps, currentUser(req)),
  );
  r.get('/api/project/bookmark', { compress: LARGE_RESPONSE, schema: many }, async (req) =>
    projects.listBookmarked(deps, currentUser(req)),
  );
  r.get('/api/project/archived', { compress: LARGE_RESPONSE, schema: many }, async (req) =>
    projects.listArchivedProjects(deps, currentUser(req)),
  );
  r.get(
    '/api/project/relevant/:count',
    { compress: LARGE_RESPONSE, schema: { params: relevantParams, ...many } },
    async (req) => projects.listRelevant(deps, currentUser(req), req.params.count),
  );
  r.get('/api/project/id/:id', { schema: { params: idParamsSchema, ...one } }, async (req) =>
    projects.getProject(deps, req.params.id, currentUser(req)),
  );
  r.get('/api/project/profile/:id', { schema: { params: idParamsSchema, ...many } }, async (req) =>
    projects.listProjectsOfMember(deps, req.params.id, currentUser(req)),
  );
  r.post(
    '/api/project/create',
    { schema: { body: createProjectRequestSchema, ...one } },
    async (req) => projects.createProject(deps, req.body.project, currentUser(req)),
  );
  r.patch(
    '/api/project/update/:id',
    { schema: { params: idParamsSchema, body: updateProjectRequestSchema, ...one } },
    async (req) => projects.updateProject(deps, req.params.id, req.body.project, currentUser(req)),
  );
  // Archive and restore: no body; the creator or an admin; answer the project as it now is.
  r.post('/api/project/:id/archive', { schema: { params: idParamsSchema, ...one } }, async (req) =>
    projects.archiveProject(deps, req.params.id, currentUser(req)),
  );
  r.post('/api/project/:id/restore', { schema: { params: idParamsSchema, ...one } }, async (req) =>
    projects.restoreProject(deps, req.params.id, currentUser(req)),
  );
  for (const mark of ['favor', 'unfavor', 'follow', 'unfollow'] as const) {
    r.get(`/api/project/:id/${mark}`, { schema: { params: idParamsSchema, ...one } }, async (req) =>
      projects.setMark(deps, req.params.id, mark, currentUser(req)),
    );
  }
}
