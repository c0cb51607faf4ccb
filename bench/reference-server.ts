/**
 * The second baseline of the feed rows: the same calls hand-written with Fastify and
 * better-sqlite3 and nothing else: no sign-in, no signed media URLs, no logger, no hooks, no
 * response schema. Each answers with the app's queries on the app's database (opened read-only),
 * one prepared statement each, the rows sent as they are; a body of 24 KB or more goes out
 * brotli-compressed (quality 1, on the zlib thread pool) when the client accepts it, as the
 * app's does. The issue measured such a feed at about 0.30× the bare hello on its machine: this
 * is what a feed costs with these two libraries on the machine the bench runs on. Prints
 * `listening <port>` once it accepts connections.
 *
 *   REFERENCE_DB=path/to/sitelog.db node --import tsx bench/reference-server.ts
 *
 *   GET /latest/:count                 the Home feed (newest uploads of every project)
 *   GET /project/:id                   a project with its four newest uploads
 *   GET /project/:id/uploads?limit=N   a project's feed
 */
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import SQLite from 'better-sqlite3';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

const file = process.env.REFERENCE_DB;
if (!file) throw new Error('REFERENCE_DB: the SQLite file to read');
const db = new SQLite(file, { readonly: true });

const uploadColumns = `u.id, u.name, u.description, u.created_at, u.updated_at, u.preview_key,
  u.formatted_key, u.original_key, u.original_type, u.formatted_width, u.formatted_height,
  u.captured_at, u.latitude, u.longitude, u.camera, u.creator_id,
  c.firstname as creator_firstname, c.lastname as creator_lastname, u.project_id,
  p.name as project_name`;
const uploadsFrom = `from uploads u
  join users c on c.id = u.creator_id
  join projects p on p.id = u.project_id`;
const latest = db.prepare(
  `select ${uploadColumns} ${uploadsFrom} order by u.created_at desc, u.id desc limit ?`,
);
const projectUploads = db.prepare(
  `select ${uploadColumns} ${uploadsFrom} where u.project_id = ?
   order by u.created_at desc, u.id desc limit ?`,
);
const project = db.prepare(
  `select p.*, c.firstname as creator_firstname, c.lastname as creator_lastname
   from projects p join users c on c.id = p.creator_id where p.id = ?`,
);
const lastUploads = db.prepare(
  `select id, preview_key from uploads where project_id = ?
   order by created_at desc, id desc limit 4`,
);

const compress = promisify(brotliCompress);
const BROTLI = {
  params: {
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_QUALITY]: 1,
  },
};

async function send(request: FastifyRequest, reply: FastifyReply, data: unknown) {
  const body = Buffer.from(JSON.stringify(data));
  void reply.type('application/json; charset=utf-8');
  if (body.length < 24 * 1024 || !/\bbr\b/.test(request.headers['accept-encoding'] ?? ''))
    return body;
  void reply.header('content-encoding', 'br').header('vary', 'accept-encoding');
  return compress(body, BROTLI);
}

const count = (value: unknown) => Math.min(Math.max(Number(value) || 18, 1), 100);

const app = Fastify();
app.get<{ Params: { count: string } }>('/latest/:count', (request, reply) =>
  send(request, reply, latest.all(count(request.params.count))),
);
app.get<{ Params: { id: string } }>('/project/:id', (request, reply) => {
  const id = Number(request.params.id);
  const row = project.get(id);
  if (!row) return reply.code(404).send({ message: 'no such project' });
  return send(request, reply, { ...row, lastUploads: lastUploads.all(id) });
});
app.get<{ Params: { id: string }; Querystring: { limit?: string } }>(
  '/project/:id/uploads',
  (request, reply) =>
    send(request, reply, projectUploads.all(Number(request.params.id), count(request.query.limit))),
);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
