import { workspacePatchSchema, workspaceSchema } from '@sitelog/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../http/schemas.js';
import * as workspace from './workspace.service.js';

export function workspaceRoutes(app: FastifyInstance, deps: workspace.WorkspaceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const response = { 200: workspaceSchema, ...errorResponses };
  r.get('/api/workspace', { schema: { response } }, async () => workspace.getWorkspace(deps));
  r.patch(
    '/api/workspace',
    { config: { access: 'admin' }, schema: { body: workspacePatchSchema, response } },
    async (req) => workspace.updateWorkspace(deps, req.body),
  );
}
